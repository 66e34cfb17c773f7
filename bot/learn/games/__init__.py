"""One lesson per game (``LESSON``)."""
