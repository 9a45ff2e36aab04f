"""OpenD6 Fantasy Game Basics (West End Games, 2009), as docs/opend6.md applies it."""
