"""The journal: game logs on disk (fsync before any answer), their lines, and the history."""
