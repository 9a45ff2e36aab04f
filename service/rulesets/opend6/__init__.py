"""OpenD6 Fantasy Game Basics (shared/seeds/004_ff52a7cb9597a967.txt)."""
