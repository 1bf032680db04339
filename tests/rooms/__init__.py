"""What the tests of each room's reader share: its real files, its audit, mutated hands."""
