"""Bots: the bot protocol, built-in bots and the sandbox that runs uploaded bots."""
