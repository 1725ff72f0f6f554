from typing import Any, Mapping, Optional, Sequence, Union

# A list of str, or a pyarrow Array / ChunkedArray of strings (string, large_string, string_view,
# dictionary of strings); pyarrow is not required to import coherency.
Texts = Union[Sequence[str], Any]

__version__: str

Thresholds = Mapping[str, Union[float, int, str, Mapping[str, Union[float, int, str]]]]

def analyze(text: str, thresholds: Optional[Thresholds] = None) -> dict[str, Any]:
    """The report on one text: verdict, reasons, onset, metrics, checks, spans."""

def analyze_batch(
    texts: Texts, thresholds: Optional[Thresholds] = None, threads: Optional[int] = None
) -> list[Optional[dict[str, Any]]]:
    """`analyze` of each text on every core (the GIL released), in the texts' order; an Arrow null gives None."""

def verdicts(
    texts: Texts, thresholds: Optional[Thresholds] = None, threads: Optional[int] = None
) -> list[Optional[str]]:
    """The verdict ("PASS", "WARN", "FAIL") of each text, on every core; an Arrow null gives None."""

def judge(
    data: bytes,
    format: str = "auto",
    thresholds: Optional[Thresholds] = None,
    worst: int = 10,
    all_messages: bool = False,
    judge_inputs: bool = False,
) -> dict[str, Any]:
    """A whole input (transcript, log, stream capture, plain text) judged: the CLI's --json line."""

def threshold_names() -> str:
    """The thresholds `thresholds=` can set, with their defaults."""
