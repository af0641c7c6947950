"""docs/evaluation.md's runnable blocks (``tests/test_docs.py`` runs the other
docs'): a file of its own, so that pytest-xdist's ``--dist loadfile`` can run it on one worker
while the other slow docs run on another."""

from .test_docs import documented_commands_test

test_documented_commands_run = documented_commands_test("docs/evaluation.md")
