"""Chroniques de Liber (seed 002): the general's duel, with decks players build.

Work in progress (issue 14): the package is not registered in
``engine.GAMES`` until its rules are complete.
"""
