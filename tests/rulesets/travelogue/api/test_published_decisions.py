"""Every decision of the travelogue (D1–D31, the guide's "Decisions") is stated in the
published document, where a generated client's reader meets it."""

from __future__ import annotations

import json
import re

from tests.support.openapi import default_document


def test_the_published_document_states_every_decision() -> None:
    document = default_document()
    travelogue = json.dumps(
        [
            {path: item for path, item in document["paths"].items() if "/travelogue" in path},
            {
                n: s
                for n, s in document["components"]["schemas"].items()
                if n.startswith("Travelogue")
            },
            [tag for tag in document["tags"] if tag["name"] == "travelogue"],
        ]
    )
    cited = {int(number) for number in re.findall(r"\bD(\d{1,2})\b", travelogue)}
    assert set(range(1, 32)) - cited == set()
