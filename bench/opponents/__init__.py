"""Benchmark opponents: public Qwixx bots, each written afresh from its published description
and source, playing through our referee. They are measuring sticks, not part of the package."""
