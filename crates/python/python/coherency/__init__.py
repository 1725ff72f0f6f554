"""Coherency Analyzer: catches repetition collapse (loops of words, lines, phrases, replies, tool
calls) and incoherence (gibberish, word salad, leaked chat templates, drift) in LLM output, and
says where it starts.

    >>> import coherency
    >>> coherency.analyze("no " * 40)["verdict"]
    'FAIL'

Every figure comes from the same Rust core as the command-line tool and the page; reports are
the CLI's JSON (`coherency analyze --json`) read into Python values.
"""

from ._coherency import __version__, analyze, analyze_batch, judge, threshold_names, verdicts

__all__ = ["__version__", "analyze", "analyze_batch", "judge", "threshold_names", "verdicts"]
