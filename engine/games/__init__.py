"""One module per game; each exposes ``GAME``, an instance of :class:`engine.core.Game`."""
