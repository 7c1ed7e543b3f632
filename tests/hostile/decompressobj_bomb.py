# expect: EnvMemoryError|EnvTimeoutError at reset
# attack: reset() inflates the same bomb through zlib.decompressobj with an unbounded max_length and wbits tricks.
"""Hostile environment: a streaming decompression bomb."""

import base64
import zlib

BOMB = "eNrt3CFOXAEUhtE36QiCKINAYRCVRWEwk4CprgBNWAC+riQE301UV+GLYwe0KBbQNIQQFGHIjGQJ7ztnCVf+ufm+3f27nkyGYTj/8frr/9r6AAAAAIzc+d+LD8sxYNhZ3H75egwAAACM3enGx+lqFHg52T50DgAAABi9y/n+bPUh8Pj9bOocAAAAMHpbz/cHqy3gZnG1eeQeAAAAMHp/BAMAAAAgRTAAAAAAWgQDAAAAoEUwAAAAAGIEAwAAAKBFMAAAAABaBAMAAACgRTAAAAAAYgQDAAAAoEUwAAAAAFoEAwAAAKBFMAAAAABiBAMAAACgRTAAAAAAWgQDAAAAoEUwAAAAAGIEAwAAAKBFMAAAAABaBAMAAACgRTAAAAAAYgQDAAAAoEUwAAAAAFoEAwAAAKBFMAAAAABiBAMAAACgRTAAAAAAWgQDAAAAoEUwAAAAAGIEAwAAAKBFMAAAAABaBAMAAACgRTAAAAAAYgQDAAAAoEUwAAAAAFoEAwAAAKBFMAAAAABiBAMAAACgRTAAAAAAWgQDAAAAoEUwAAAAAGIEAwAAAKBFMAAAAABaBAMAAACgRTAAAAAAYgQDAAAAoEUwAAAAAFoEAwAAAKBFMAAAAABiBAMAAACgRTAAAAAAWgQDAAAAoEUwAAAAAGIEAwAAAKBFMAAAAABaBAMAAACgRTAAAAAAYgQDAAAAoEUwAAAAAFp+zvc/LbeA2dPiau/zAADwzu/dh2GYvAHnz037"


class StreamingBombEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        inner = zlib.decompressobj(wbits=47).decompress(base64.b64decode(BOMB))
        chunks = []
        inflater = zlib.decompressobj()
        for start in range(0, len(inner), 4096):
            chunks.append(inflater.decompress(inner[start:start + 4096]))
        return f"inflated {sum(map(len, chunks))} bytes", {}

    def step(self, action):
        return "unreachable", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
