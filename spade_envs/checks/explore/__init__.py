"""The explorer: moves the solution never plays, for games played move by move.

``grammar`` reads a game's move templates and advertised commands from the game itself; ``families``
registers the strategies built from them as exploit-search families (``register_family``), so a new
mutation or exploration is one registered function, judged by the search's own chance rule.
"""
