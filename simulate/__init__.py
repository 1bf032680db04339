"""The hand simulator: legal Razz hands played through the engine, and hands broken on purpose.

* `simulator`: tables and tournaments played hand by hand, every decision taken from the
  engine's `legal_actions`, written as PokerStars files (`simulate`, `write_files`).
* `players`: the play styles and the player names the simulator seats.
* `violations`: `FaultHook`s that each break one rule on purpose, and their manifest.
"""
