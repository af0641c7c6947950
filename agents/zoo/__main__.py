"""``python -m agents.zoo``: list the zoo, ``show`` a policy's model card, or ``add`` a trained
checkpoint to it."""

from . import main

main()
