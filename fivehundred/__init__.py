"""fivehundred: the open platform for the card game Five Hundred.

This package stays light on purpose: ``import fivehundred.engine`` must work inside a bot's
sandbox with no Django installed or configured.
"""

__version__ = "0.1.0"
