"""Play: what happens at a table. Creating, viewing and moving in games (`games`), gathering
people at tables (`tables`), the bots that sit in seats and the turns they and the clocks
play (`bots`, `turns`), with their metrics (`bot_metrics`).
"""
