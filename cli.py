"""The `legalsearch` command, runnable from a checkout: `python cli.py --help`.

The commands live in the package (`legalsearch.cli`, installed as the `legalsearch` console
script); this file only hands over to them.
"""

from legalsearch.cli import main

if __name__ == "__main__":
    main()
