"""The host side of the WebAssembly sandbox: one engine per backend, one store per session.

Isolation comes from WebAssembly itself: the guest's memory is its own linear memory, it has no
filesystem (nothing is pre-opened), no environment variables, no arguments, no sockets (WASI denies
every address), no threads and no subprocesses. On top of that each call gets:

* a time limit that counts work: the store is given a budget of guest instructions (wasmtime's fuel,
  ``ExecutionLimits.call_instructions``) and traps once it is spent. The count does not depend on the
  machine's speed or load, so neither does a verdict; and the guest stops within its budget whatever
  the host's threads do with the GIL (the count runs inside the compiled guest code). A request that
  makes several environment calls (a batch of episodes, an oracle request) gets one call's budget, as
  it got one call's time before: the checker sizes its batches to a fraction of it, by the instructions
  the last batch took, and plays a batch that runs out again one episode at a time;
* a wall-clock backstop, by epoch interruption, far wider than the budget (``ExecutionLimits.backstop_s``):
  a ticker advances the engine's epoch and the store traps once its deadline passes. On Linux the ticker
  is a native timer that needs no GIL (see ``ticker.py``). Blocking waits cannot hide from either limit
  because the monotonic clock's wait functions are replaced by ones that trap (a guest that sleeps
  returns at once or fails); a trap of the backstop is an ``EnvBackstopError``, so findings can say
  which limit fired;
* a memory cap on the store's linear memory: Python sees a MemoryError, and the session is discarded;
* bounded output and reply sizes, enforced in the guest and checked again here.

Thread safety: a ``WasmRuntime`` (engine, linker, compiled component) may be shared by any number of
threads; each ``WasmTransport`` (one store) must be used by one thread at a time. The GIL is released
while the guest runs, so the guest parts of sessions on different threads run in parallel; the host's
part of each call holds it (see ``runtime/threads.py`` for what that means for scaling).
"""

from __future__ import annotations

import ctypes
import functools
import json
import math
import resource
import threading
import time
import weakref
from collections import OrderedDict
from ctypes import byref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import wasmtime
from wasmtime import component

from spade_envs.runtime.errors import EnvBackstopError, EnvCrashError, EnvMemoryError, EnvTimeoutError
from spade_envs.runtime.limits import MAX_CALL_INSTRUCTIONS, ExecutionLimits
from spade_envs.runtime.replies import decode_wire_reply
from spade_envs.runtime.wasm.build import load_compiled_component
from spade_envs.runtime.wasm.ticker import Ticker, start_ticker

MONOTONIC_CLOCK = "wasi:clocks/monotonic-clock@0.2.9"
INSTANTIATION_INSTRUCTIONS = 10**12
"""Instructions a new store may spend instantiating the guest (it starts from a snapshot: far fewer)."""
MIN_MEMORY_MB = 32
"""The guest interpreter needs this much linear memory to start; smaller caps are raised to it."""


@dataclass(frozen=True)
class WasmConfig:
    """Engine settings; changing any of them recompiles the component (once)."""

    epoch_tick_s: float = 0.005
    """How often the ticker advances the epoch: the resolution of the time limit."""
    ticker: str = "native"
    """What advances the epoch: "native" (a POSIX timer calling into wasmtime without the GIL, so the
    limit holds while other threads keep the GIL busy; falls back to "thread" where unavailable) or
    "thread" (a Python thread, which needs the GIL for every tick)."""
    min_host_stack: int = 1 << 20
    """Wasm frames run on the calling thread's native stack (wasmtime reserves 512 KiB for them, the
    size the guest CPython's own recursion guard assumes). A thread with less stack than this would
    segfault the host on deep guest recursion, so such calls are refused with a clear error."""
    cache_dir: Path | None = None
    """Where the built and compiled guest is cached (default: ~/.cache/spade-toolkit/wasm)."""
    compiled_cache_entries: int = 512
    """How many compiled environment modules to keep in memory for fast reloads."""
    meter_instructions: bool = True
    """Count the guest's instructions (wasmtime fuel) and stop a call once its budget is spent, so that
    time limits count work, not seconds (see ``runtime/limits.py``). Off: the wall clock decides, at
    ``call_timeout_s`` (epoch interruption), as it did before instructions were counted."""
    wall_clock_backstop: bool = False
    """With instructions counted, also stop a call on the wall clock after ``ExecutionLimits.backstop_s``.
    Off by default: the instruction budget already bounds a call's work on any machine, a guest blocked
    in a host call cannot be interrupted by either, and the epoch checks cost guest code about 13% of its
    speed on top of the count's 10% (measured on the bundled library). The validation workers keep their
    own wall-clock backstop per file (``WorkerLimits.seconds``)."""

    @property
    def uses_epoch(self) -> bool:
        return not self.meter_instructions or self.wall_clock_backstop

    def engine_description(self) -> str:
        return ";".join(part for part in ("epoch_interruption=1" if self.uses_epoch else "", "opt=speed",
                                          "fuel=1" if self.meter_instructions else "") if part)


def _release(ticker: Ticker, transports: weakref.WeakSet[Any], *objects: Any) -> None:
    ticker.stop()
    for transport in list(transports):  # sessions still open at exit: drop their stores first
        transport.close()
    for item in objects:
        close = getattr(item, "close", None)
        if callable(close):
            close()


class _NoTicker:
    """The ticker of an engine without epoch interruption: nothing to advance."""

    kind = "none"

    def stop(self) -> None:
        pass


def _trap_blocking_wait(store: Any, *args: Any) -> None:
    raise RuntimeError("the sandbox does not allow waiting on the clock (sleep, select, timeouts)")


class WasmRuntime:
    """The engine, linker and compiled guest shared by every session of one backend."""

    def __init__(self, config: WasmConfig | None = None) -> None:
        self.config = config or WasmConfig()
        engine_config = wasmtime.Config()
        engine_config.epoch_interruption = self.config.uses_epoch
        engine_config.consume_fuel = self.config.meter_instructions
        engine_config.cranelift_opt_level = "speed"
        self.engine = wasmtime.Engine(engine_config)
        self.component = load_compiled_component(
            self.engine, self.config.engine_description(), self.config.cache_dir
        )
        self.linker = component.Linker(self.engine)
        self.linker.add_wasip2()
        self.linker.allow_shadowing = True
        with self.linker.root() as root, root.add_instance(MONOTONIC_CLOCK) as clock:
            clock.add_func("now", lambda store: time.monotonic_ns())
            clock.add_func("resolution", lambda store: 1_000)
            clock.add_func("subscribe-instant", _trap_blocking_wait)
            clock.add_func("subscribe-duration", _trap_blocking_wait)
        self._ticker: Ticker = (start_ticker(self.engine, self.config.epoch_tick_s, self.config.ticker)
                                if self.config.uses_epoch else _NoTicker())
        # Release wasmtime objects while the interpreter is still whole: left to garbage collection at
        # shutdown, their destructors run after wasmtime's own module is torn down and print errors.
        self._transports: weakref.WeakSet[WasmTransport] = weakref.WeakSet()
        weakref.finalize(self, _release, self._ticker, self._transports, self.linker, self.component, self.engine)
        self._stack_checked = threading.local()
        self._executed = 0
        self._executed_lock = threading.Lock()
        self._compiled: OrderedDict[str, str] = OrderedDict()
        self._compiled_lock = threading.Lock()

    @property
    def instructions_executed(self) -> int | None:
        """Guest instructions every session of this runtime has executed so far (None when the engine does
        not count them): the work a validation cost, the same on every machine and under any load."""
        return self._executed if self.config.meter_instructions else None

    def _add_executed(self, instructions: int) -> None:
        with self._executed_lock:
            self._executed += instructions

    def check_stack(self) -> None:
        """Refuse to enter the guest from a thread too small to hold its stack (see ``min_host_stack``).

        Called on every request, so the verdict is remembered per thread: a thread's stack never changes.
        """
        if getattr(self._stack_checked, "ok", False):
            return
        self._check_stack_size()
        self._stack_checked.ok = True

    def _check_stack_size(self) -> None:
        if threading.current_thread() is threading.main_thread():
            soft, _ = resource.getrlimit(resource.RLIMIT_STACK)
            size = soft if soft != resource.RLIM_INFINITY else 0
        else:
            size = threading.stack_size()  # the size threads are being created with; 0 means the default
        if 0 < size < self.config.min_host_stack:
            raise EnvCrashError(
                f"this thread's stack ({size // 1024} KiB) is too small to run the sandbox safely; use threads "
                f"with at least {self.config.min_host_stack // 1024} KiB (threading.stack_size(0) restores the default)"
            )

    def deadline_ticks(self, seconds: float) -> int:
        """Epoch ticks for a deadline ``seconds`` away (at most a year: the store's counter is 64-bit)."""
        return max(1, math.ceil(min(seconds, 3.2e7) / self.config.epoch_tick_s)) + 1

    # Compiled environment modules, keyed by source: an environment is loaded dozens of times per
    # training step (validation, hinted and unhinted rollouts), and compiling is most of a load.
    def compiled_module(self, source: str, limits: ExecutionLimits) -> str | None:
        """The module compiled by a pristine guest (cached), or None if it does not compile.

        The blob never comes from an instance that ran environment code: such an instance is under
        the environment's control and could hand back different code for later sessions.
        """
        with self._compiled_lock:
            blob = self._compiled.get(source)
            if blob is not None:
                self._compiled.move_to_end(source)
                return blob
        compiler = WasmTransport(self, limits)
        try:
            reply = compiler.call({"op": "compile", "source": source})
        except (EnvCrashError, EnvTimeoutError, EnvMemoryError):
            return None
        finally:
            compiler.close()
        blob = reply.get("result") if reply.get("ok") else None
        if not isinstance(blob, str):
            return None
        with self._compiled_lock:
            self._compiled[source] = blob
            while len(self._compiled) > self.config.compiled_cache_entries:
                self._compiled.popitem(last=False)
        return blob


def _unencodable(value: Any) -> None:
    raise TypeError(f"a request holds a {type(value).__name__}, which JSON cannot carry")


_ENCODER = json.encoder.c_make_encoder(None, _unencodable, json.encoder.encode_basestring_ascii, None, ": ", ", ",
                                       False, False, True) if json.encoder.c_make_encoder else None


def _encode_request(request: dict[str, Any]) -> str:
    """``json.dumps(request)``, with one C encoder made once instead of one per call."""
    return "".join(_ENCODER(request, 0)) if _ENCODER is not None else json.dumps(request)


@functools.cache
def _holding_gil(name: str) -> Any:
    """The same C function, called without releasing the GIL (made once per process: building a ctypes
    function type and pointer costs more than a whole step, and every session start asked for three).

    ctypes releases the GIL around every foreign call. For the few microseconds of bookkeeping calls
    around a guest call that is wasted, and worse with threads: each release hands the GIL to a
    waiting thread and back, a pair of context switches per call, which is what made sessions on two
    threads slower in total than on one. Only the guest call itself releases the GIL.
    """
    from wasmtime import _bindings, _ffi

    function = getattr(_bindings, f"_{name}")
    return ctypes.PYFUNCTYPE(function.restype, *function.argtypes)((name, _ffi.dll))


class _StringCall:
    """Calls the guest's ``handle(string) -> string`` export.

    wasmtime-py's generic ``Func.__call__`` rebuilds the function type and converts every value on
    each call, which costs about 40 us, as much as the guest's own work. This caller prepares the
    buffers and views once and calls the C API directly:

    * the request is lent, not copied: the parameter's byte vector points into the request's own bytes
      object (the C API only reads its arguments, and copies the string into the guest);
    * the reply's size and address are read through views made once, and the reply copied out in one C
      call before it is released;
    * only the guest call itself releases the GIL (``_holding_gil``): every other C call is a few
      microseconds of bookkeeping, and each release would hand the GIL to a waiting thread and back.

    Everything the GIL is held for here is time another thread's session cannot use, and on a VM each
    hand-over of the GIL between threads costs about a guest call's time (``runtime/threads.py``). It uses wasmtime-py internals
    (the version is pinned); if they are missing it falls back to the public API.
    """

    def __init__(self, func: component.Func, store: wasmtime.Store) -> None:
        self._func, self._store = func, store
        try:
            from wasmtime import _bindings, _ffi

            self._raw_call = _bindings._wasmtime_component_func_call  # releases the GIL while the guest runs
            self._delete = _holding_gil("wasmtime_component_val_delete")
            self._post_return = _holding_gil("wasmtime_component_func_post_return")
            self._set_deadline = _holding_gil("wasmtime_context_set_epoch_deadline")
            self._set_fuel = _holding_gil("wasmtime_context_set_fuel")
            self._get_fuel = _holding_gil("wasmtime_context_get_fuel")
            self._fuel_left = ctypes.c_uint64(0)
            self._fuel_left_ref = byref(self._fuel_left)
            self._buffer_address = _BYTES_ADDRESS
            self._string_at = _STRING_AT
            self._params = (_ffi.wasmtime_component_val_t * 1)()
            self._params[0].kind = _ffi.WASMTIME_COMPONENT_STRING
            self._result = _ffi.wasmtime_component_val_t()
            self._context = store._context()
            self._func_ref, self._params_ref = byref(func._func), self._params
            self._result_ref = byref(self._result)
            # Views of the two byte vectors' fields (size, then data pointer): plain integers to read and write.
            param, result = self._params[0].of.string, self._result.of.string
            self._param_size = ctypes.c_size_t.from_buffer(param, _ffi.wasm_byte_vec_t.size.offset)
            self._param_data = ctypes.c_void_p.from_buffer(param, _ffi.wasm_byte_vec_t.data.offset)
            self._reply_size = ctypes.c_size_t.from_buffer(result, _ffi.wasm_byte_vec_t.size.offset)
            self._reply_data = ctypes.c_void_p.from_buffer(result, _ffi.wasm_byte_vec_t.data.offset)
            self._fast = True
        except (ImportError, AttributeError):  # pragma: no cover - depends on the wasmtime build
            self._fast = False

    def __call__(self, text: str, max_chars: int, deadline_ticks: int | None, fuel: int | None = None) -> str:
        """The guest's reply to ``text``; the call traps ``deadline_ticks`` epoch ticks from now, or once it has
        executed ``fuel`` instructions (when the engine counts them). ``instructions()`` then tells how many
        it executed."""
        if not self._fast:  # pragma: no cover
            if deadline_ticks is not None:
                self._store.set_epoch_deadline(deadline_ticks)
            if fuel is not None:
                self._store.set_fuel(fuel)
            result = self._func(self._store, text)
            self._func.post_return(self._store)
            if len(result) > max_chars:
                raise _ReplyTooLarge(len(result))
            return result
        context = self._context
        if deadline_ticks is not None:
            self._set_deadline(context, deadline_ticks)
        if fuel is not None:
            error = self._set_fuel(context, fuel)
            if error:
                _raise_wasmtime_error(error)
        data = text.encode("utf-8")  # kept alive by this frame for the whole call
        self._param_size.value = len(data)
        self._param_data.value = self._buffer_address(data)
        try:
            error = self._raw_call(self._func_ref, context, self._params_ref, 1, self._result_ref, 1)
        finally:
            self._param_data.value = None  # never leave a pointer into a freed bytes object behind
        if error:
            _raise_wasmtime_error(error)
        try:
            size = self._reply_size.value
            # Refuse before copying a forged giant reply into host memory; and ``string_at`` takes a C int,
            # which would wrap a size of 2 GiB or more (to -1: read up to a NUL) whatever max_chars allows.
            if size > max_chars or size >= _STRING_AT_LIMIT:
                raise _ReplyTooLarge(size)
            return self._string_at(self._reply_data.value, size).decode("utf-8")
        finally:
            self._delete(self._result_ref)
            error = self._post_return(self._func_ref, context)
            if error:
                _raise_wasmtime_error(error)


_BYTES_ADDRESS = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object)(("PyBytes_AsString", ctypes.pythonapi))
"""The address of a bytes object's own buffer (``PyBytes_AsString``), called holding the GIL."""
_STRING_AT = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_int)(ctypes._string_at_addr)
"""``ctypes.string_at`` without its Python wrapper: a bytes object copied from (address, size)."""
_STRING_AT_LIMIT = 1 << 31
"""Sizes ``_STRING_AT`` can take (its size is a C int)."""


def _fuel_left(call: _StringCall, store: wasmtime.Store) -> int:
    """The fuel a store has left (after a call: the budget minus what the guest executed)."""
    if getattr(call, "_fast", False):
        error = call._get_fuel(call._context, call._fuel_left_ref)
        if error:
            _raise_wasmtime_error(error)
        return int(call._fuel_left.value)
    return store.get_fuel()  # pragma: no cover


class _ReplyTooLarge(Exception):
    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def _raise_wasmtime_error(pointer: Any) -> None:
    from wasmtime.component._enter import maybe_raise_last_exn

    error = wasmtime.WasmtimeError._from_ptr(pointer)
    maybe_raise_last_exn()  # a host function's own exception (our clock trap) takes precedence
    raise error


def _classify(error: Exception, op: str, limits: ExecutionLimits, *, metered: bool = False,
              backstop_s: float = 0.0) -> Exception:
    """Turn a wasmtime trap into the SDK's error types by reading its cause."""
    text = str(error)
    lowered = text.lower()
    if "fuel" in lowered:
        return EnvTimeoutError(
            f"the environment's {op}() ran longer than {limits.call_timeout_s:g} s of work (its budget of "
            f"{limits.call_instructions or 0:.2e} guest instructions, counted the same on every machine and load); "
            "remove unbounded loops or make the work smaller"
        )
    if "interrupt" in lowered or "epoch" in lowered:
        if metered:
            return EnvBackstopError(
                f"the environment's {op}() was stopped by the {backstop_s:g} s wall-clock backstop before it used "
                "up its instruction budget: the machine was too slow or busy to finish the call, or the guest was "
                "stuck where instructions are not counted; this verdict depends on the machine, not only on the code"
            )
        return EnvTimeoutError(
            f"the environment's {op}() ran longer than {limits.call_timeout_s:g} s; "
            "remove unbounded loops or make the work smaller"
        )
    if "out of memory" in lowered or "memory.grow" in lowered or "allocation" in lowered:
        return EnvMemoryError(f"the environment exhausted its {limits.memory_mb} MB memory limit during {op}()")
    if "stack" in lowered and "exhaust" in lowered or "stack overflow" in lowered:
        return EnvCrashError(f"the environment overflowed the sandbox stack during {op}() (recursion too deep)")
    if "exit" in lowered:
        return EnvCrashError(f"the environment tried to exit the interpreter during {op}()")
    if "does not allow waiting" in lowered:
        return EnvCrashError(f"the environment tried to sleep or wait during {op}(); waiting is not allowed")
    if "unreachable" in lowered:
        return EnvCrashError(f"the guest interpreter aborted during {op}() (a fatal error inside the sandbox)")
    cause = " ".join(text.split())[-160:] if text.strip() else "unknown trap"
    return EnvCrashError(f"the sandbox trapped during {op}(): {cause}")


class WasmTransport:
    """One sandbox instance (its own store and linear memory) serving one environment."""

    def __init__(self, runtime: WasmRuntime, limits: ExecutionLimits) -> None:
        self.runtime = runtime
        self.limits = limits
        self.last_output = ""
        runtime._transports.add(self)
        self._store: wasmtime.Store | None = wasmtime.Store(runtime.engine)
        self._store.set_wasi(wasmtime.WasiConfig())  # nothing inherited: no files, env vars, args
        self._store.set_limits(memory_size=max(limits.memory_mb, MIN_MEMORY_MB) << 20)
        self._metered = runtime.config.meter_instructions
        self._epoch = runtime.config.uses_epoch
        if self._epoch:
            self._store.set_epoch_deadline(runtime.deadline_ticks(10.0))
        if self._metered:
            self._store.set_fuel(INSTANTIATION_INSTRUCTIONS)  # instantiating the guest executes code too
        self.last_instructions: int | None = None
        """Guest instructions the last call executed (None when the engine does not count them)."""
        try:
            instance = runtime.linker.instantiate(self._store, runtime.component)
            handle = instance.get_func(self._store, "handle")
        except wasmtime.WasmtimeError as error:
            self._store = None
            raise EnvCrashError(f"the sandbox could not start: {str(error).splitlines()[0]}") from None
        if handle is None:
            self._store = None
            raise EnvCrashError("the sandbox guest exports no handle function; rebuild the guest image")
        self._call: _StringCall | None = _StringCall(handle, self._store)
        timeout = limits.call_timeout_s if limits.call_timeout_s > 0 else 3600.0
        self._deadline_ticks: int | None = (runtime.deadline_ticks(limits.backstop_s if self._metered else timeout)
                                            if self._epoch else None)

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        if self._store is None or self._call is None:
            raise EnvCrashError("the sandbox session is closed")
        op = str(request.get("op"))
        self.runtime.check_stack()
        source = request.get("source") if op == "load" else None
        if isinstance(source, str):
            request = self._with_load_settings(request, source)
        payload = _encode_request(request)
        fuel, deadline = None, self._deadline_ticks
        if self._metered:
            budget = self.limits.call_instructions
            fuel = MAX_CALL_INSTRUCTIONS if budget is None else budget
        call = self._call
        try:
            raw = call(payload, self.limits.max_reply_bytes + 4096, deadline, fuel)
        except _ReplyTooLarge as error:
            self._count(call, fuel)
            self.close()
            raise EnvCrashError(f"the sandbox's reply to {op}() had {error.size:,} bytes, over the "
                                f"{self.limits.max_reply_bytes:,}-byte limit") from None
        except Exception as error:  # noqa: BLE001 -- traps arrive as WasmtimeError, Trap or our clock's error
            self._count(call, fuel)
            self.close()  # a trapped instance can never be entered again
            raise _classify(error, op, self.limits, metered=self._metered, backstop_s=self.limits.backstop_s) from None
        self._count(call, fuel)
        return self._decode(raw, op)

    def _count(self, call: _StringCall, fuel: int | None) -> None:
        """Record how many instructions the call that just returned (or trapped) executed."""
        if fuel is None or self._store is None:
            self.last_instructions = None
            return
        try:
            self.last_instructions = fuel - _fuel_left(call, self._store)
        except wasmtime.WasmtimeError:  # pragma: no cover - the store refuses to say
            self.last_instructions = None
            return
        self.runtime._add_executed(self.last_instructions)

    def _with_load_settings(self, request: dict[str, Any], source: str) -> dict[str, Any]:
        return {
            **request,
            "max_output_chars": self.limits.max_output_bytes,
            "max_reply_chars": self.limits.max_reply_bytes,
            "compiled": self.runtime.compiled_module(source, self.limits),
        }

    def _decode(self, raw: Any, op: str) -> dict[str, Any]:
        if not isinstance(raw, str) or len(raw) > self.limits.max_reply_bytes + 4096:
            self.close()
            raise EnvCrashError(f"the sandbox sent an oversized or non-text reply to {op}()")
        try:
            reply, self.last_output = decode_wire_reply(raw, "the sandbox", op, self.limits.max_output_bytes)
        except EnvCrashError:
            self.close()
            raise
        return reply

    def close(self) -> None:
        # Drop the function before the store: wasmtime objects must not outlive their store.
        self._call = None
        store, self._store = self._store, None
        if store is not None:
            store.close()
