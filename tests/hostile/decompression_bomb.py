# expect: EnvMemoryError|EnvTimeoutError at step
# attack: step() inflates a 564-byte zlib-in-zlib bomb to 256 MB; also tries gzip, bz2 and lzma.
"""Hostile environment: decompression bombs."""

import base64
import zlib

BOMB = "eNrt3CFOXAEUhtE36QiCKINAYRCVRWEwk4CprgBNWAC+riQE301UV+GLYwe0KBbQNIQQFGHIjGQJ7ztnCVf+ufm+3f27nkyGYTj/8frr/9r6AAAAAIzc+d+LD8sxYNhZ3H75egwAAACM3enGx+lqFHg52T50DgAAABi9y/n+bPUh8Pj9bOocAAAAMHpbz/cHqy3gZnG1eeQeAAAAMHp/BAMAAAAgRTAAAAAAWgQDAAAAoEUwAAAAAGIEAwAAAKBFMAAAAABaBAMAAACgRTAAAAAAYgQDAAAAoEUwAAAAAFoEAwAAAKBFMAAAAABiBAMAAACgRTAAAAAAWgQDAAAAoEUwAAAAAGIEAwAAAKBFMAAAAABaBAMAAACgRTAAAAAAYgQDAAAAoEUwAAAAAFoEAwAAAKBFMAAAAABiBAMAAACgRTAAAAAAWgQDAAAAoEUwAAAAAGIEAwAAAKBFMAAAAABaBAMAAACgRTAAAAAAYgQDAAAAoEUwAAAAAFoEAwAAAKBFMAAAAABiBAMAAACgRTAAAAAAWgQDAAAAoEUwAAAAAGIEAwAAAKBFMAAAAABaBAMAAACgRTAAAAAAYgQDAAAAoEUwAAAAAFoEAwAAAKBFMAAAAABiBAMAAACgRTAAAAAAWgQDAAAAoEUwAAAAAGIEAwAAAKBFMAAAAABaBAMAAACgRTAAAAAAYgQDAAAAoEUwAAAAAFp+zvc/LbeA2dPiau/zAADwzu/dh2GYvAHnz037"


def _other_codecs():
    tried = []
    for name in ("gzip", "bz2", "lzma"):
        try:
            module = __import__(name)
        except ImportError:
            tried.append(f"{name}=missing")
            continue
        data = module.compress(b"\0" * (1 << 20))
        module.decompress(data * 300)  # 300 concatenated members: 300 MB
        tried.append(f"{name}=inflated")
    return tried


class DecompressionBombEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Unpack this.", {}

    def step(self, action):
        tried = _other_codecs()
        inner = zlib.decompress(base64.b64decode(BOMB))
        payload = zlib.decompress(inner)
        return f"inflated {len(payload)} bytes; {tried}", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
