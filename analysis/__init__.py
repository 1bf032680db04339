"""Analysis on top of the rules engine: exact Razz equity and the statistics of deal fairness."""
