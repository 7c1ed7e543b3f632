"""The clock behind the sandbox's time limit: something that advances the engine's epoch every tick.

A store traps once the engine's epoch passes the store's deadline, so the time limit is only as
punctual as the ticks. Two tickers:

* ``NativeTicker`` (Linux on x86-64 and aarch64): a POSIX interval timer (``timer_create`` with
  ``SIGEV_THREAD``) whose notification function is wasmtime's own C function
  ``wasmtime_engine_increment_epoch``, called with the engine pointer as its argument. No Python runs
  on a tick, so ticks keep coming while other threads hold the GIL (a long C call such as
  ``int()`` of ten million digits, or busy Python threads). ``union sigval`` is passed like a pointer
  on these two architectures, which is what makes the engine pointer a valid argument.
* ``ThreadTicker`` (everywhere else): a Python thread that needs the GIL for every tick, so under GIL
  contention the limit stretches. ``start_ticker`` falls back to it when the native timer cannot be
  created.

Either way the ticker must be stopped before the engine is released (``stop`` waits for that).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import platform
import sys
import threading
import time
from typing import Protocol

import wasmtime

SIGEV_THREAD = 2
CLOCK_MONOTONIC = 1
_NATIVE_MACHINES = frozenset({"x86_64", "aarch64"})
"""Where a ``union sigval`` argument is passed exactly like a pointer argument."""


class Ticker(Protocol):
    kind: str
    """"native" or "thread": which clock is ticking (reported by benchmarks)."""

    def stop(self) -> None: ...


class ThreadTicker:
    """Advances an engine's epoch from a daemon thread until stopped (needs the GIL on every tick)."""

    kind = "thread"

    def __init__(self, engine: wasmtime.Engine, tick_s: float) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(engine, tick_s), name="spade-wasm-epoch",
                                         daemon=True)
        self._thread.start()

    def _run(self, engine: wasmtime.Engine, tick_s: float) -> None:
        while not self._stop.wait(tick_s):
            engine.increment_epoch()

    def stop(self) -> None:
        """Stop and wait: the engine must not be released while the thread may still touch it."""
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)


class _SigVal(ctypes.Union):
    _fields_ = [("sival_int", ctypes.c_int), ("sival_ptr", ctypes.c_void_p)]


class _SigevThread(ctypes.Structure):
    _fields_ = [("function", ctypes.c_void_p), ("attributes", ctypes.c_void_p)]


class _SigevFields(ctypes.Union):
    _fields_ = [("pad", ctypes.c_int * 12), ("thread_id", ctypes.c_int), ("thread", _SigevThread)]


class _SigEvent(ctypes.Structure):
    """``struct sigevent`` of Linux (64 bytes on 64-bit machines, glibc and musl alike)."""

    _fields_ = [("value", _SigVal), ("signo", ctypes.c_int), ("notify", ctypes.c_int), ("fields", _SigevFields)]


class _TimeSpec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class _ITimerSpec(ctypes.Structure):
    _fields_ = [("interval", _TimeSpec), ("value", _TimeSpec)]


def _libc_with_timers() -> ctypes.CDLL:
    """The C library's timer functions (in libc since glibc 2.34, in librt before), with their types."""
    for name in (None, ctypes.util.find_library("rt")):
        try:
            library = ctypes.CDLL(name, use_errno=True)
        except OSError:
            continue
        if hasattr(library, "timer_create"):
            library.timer_create.argtypes = [ctypes.c_int, ctypes.POINTER(_SigEvent), ctypes.POINTER(ctypes.c_void_p)]
            library.timer_settime.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(_ITimerSpec),
                                              ctypes.c_void_p]
            library.timer_delete.argtypes = [ctypes.c_void_p]
            return library
    raise OSError("the C library has no timer_create")


class NativeTicker:
    """A POSIX interval timer that calls ``wasmtime_engine_increment_epoch(engine)`` every tick, GIL-free.

    Raises ``OSError`` where such a timer cannot be made (not Linux, another architecture, a libc
    without ``timer_create``); ``start_ticker`` then uses a ``ThreadTicker``.
    """

    kind = "native"

    def __init__(self, engine: wasmtime.Engine, tick_s: float) -> None:
        if not sys.platform.startswith("linux") or platform.machine() not in _NATIVE_MACHINES:
            raise OSError(f"no native epoch timer on {sys.platform}/{platform.machine()}")
        from wasmtime import _ffi

        self._libc = _libc_with_timers()
        increment = getattr(_ffi.dll, "wasmtime_engine_increment_epoch", None)
        if increment is None:
            raise OSError("this wasmtime build has no wasmtime_engine_increment_epoch")
        self._tick_s = tick_s
        self._engine = engine  # kept alive for as long as the timer may call into it
        event = _SigEvent()
        event.notify = SIGEV_THREAD
        event.value.sival_ptr = ctypes.cast(engine.ptr(), ctypes.c_void_p).value
        event.fields.thread.function = ctypes.cast(increment, ctypes.c_void_p).value
        self._timer = ctypes.c_void_p()
        if self._libc.timer_create(CLOCK_MONOTONIC, ctypes.byref(event), ctypes.byref(self._timer)) != 0:
            raise OSError(ctypes.get_errno(), "timer_create failed")
        seconds, fraction = divmod(tick_s, 1.0)
        period = _TimeSpec(int(seconds), max(1, int(fraction * 1e9)))
        spec = _ITimerSpec(period, period)
        if self._libc.timer_settime(self._timer, 0, ctypes.byref(spec), None) != 0:
            error = ctypes.get_errno()
            self._libc.timer_delete(self._timer)
            raise OSError(error, "timer_settime failed")
        self._stopped = False

    def stop(self) -> None:
        """Delete the timer, then wait out a notification that may already be on its way."""
        if self._stopped:
            return
        self._stopped = True
        self._libc.timer_delete(self._timer)
        time.sleep(max(0.05, 4 * self._tick_s))


def start_ticker(engine: wasmtime.Engine, tick_s: float, kind: str = "native") -> Ticker:
    """A running ticker of the given kind; "native" falls back to a thread where it is unavailable."""
    if kind not in ("native", "thread"):
        raise ValueError(f"unknown epoch ticker {kind!r}; choose 'native' or 'thread'")
    if kind == "native":
        try:
            return NativeTicker(engine, tick_s)
        except OSError:
            pass
    return ThreadTicker(engine, tick_s)
