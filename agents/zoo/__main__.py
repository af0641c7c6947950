"""``python -m agents.zoo``: list the zoo, or ``add`` a trained checkpoint to it."""

from . import main

main()
