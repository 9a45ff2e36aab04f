"""A worker's memory of odds answers: least recently used first out, bounded in entries and
in bytes (each key and answer counted), so a flood of distinct requests costs a bounded
amount of memory and a repeated one is answered without being computed again."""

from __future__ import annotations

from collections import OrderedDict

__all__ = ["AnswerCache"]


class AnswerCache:
    """Answers' JSON bytes by request key; at most ``entries`` of them and ``max_bytes``."""

    def __init__(self, entries: int, max_bytes: int) -> None:
        self.entries = entries
        self.max_bytes = max_bytes
        self.size = 0  # bytes held, keys and answers
        self._held: OrderedDict[bytes, bytes] = OrderedDict()

    def __len__(self) -> int:
        return len(self._held)

    def get(self, key: bytes) -> bytes | None:
        """The answer remembered for ``key`` (now the most recently used), or None."""
        answer = self._held.get(key)
        if answer is not None:
            self._held.move_to_end(key)
        return answer

    def put(self, key: bytes, answer: bytes) -> None:
        """Remember ``answer``, forgetting the least recently used to make room; one that
        would fill the cache alone is not kept."""
        cost = len(key) + len(answer)
        if self.entries == 0 or cost > self.max_bytes:
            return
        if (held := self._held.pop(key, None)) is not None:
            self.size -= len(key) + len(held)
        while self._held and (len(self._held) >= self.entries or self.size + cost > self.max_bytes):
            old_key, old = self._held.popitem(last=False)
            self.size -= len(old_key) + len(old)
        self._held[key] = answer
        self.size += cost
