"""Record the served app's answers for the generated clients to read (tests/clients/check.sh).

Sends every case of tests/support/answer_cases.py — every published example, the reads,
and the problems around them (a schema error, a rules refusal, a missing token, … for
every operation: each declared problem status that a request can bring about) — to the
service at BASE, and the examples again to the one at NO_ODDS_BASE (odds limit 0: every
odds operation's `odds-too-costly`), and writes every answer to OUT as JSON:

    python tests/clients/answers.py BASE NO_ODDS_BASE OUT

Run with the project's venv from the repository's root (it imports the rulesets' plays).
read_answers.py and answers.ts then read each answer through the generated clients.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import httpx

from tests.support.answer_cases import all_cases, odds_cases, unanswered


def main() -> None:
    base, no_odds_base, out = sys.argv[1:4]
    with httpx.Client(base_url=base, timeout=30) as client:
        answers = all_cases(client)
    with httpx.Client(base_url=no_odds_base, timeout=30) as client:
        answers += odds_cases(client)
    if missing := unanswered(answers):
        sys.exit("answers: not answered as declared:\n  " + "\n  ".join(missing))
    Path(out).write_text(json.dumps([dataclasses.asdict(answer) for answer in answers]))
    operations = {answer.operation_id for answer in answers}
    problems = sum(answer.status >= 400 for answer in answers)
    print(f"  ok  {len(answers)} answers of {len(operations)} operations, {problems} problems")


if __name__ == "__main__":
    main()
