"""What a memory's confidence means, and what the athlete's own actions do to it.

A *proposal's* confidence is how sure the extraction rules are (the M13 seed: high for an
explicit statement, medium for an inference, low for a single weak signal). Nobody has
vouched for it yet, so the proposal shows it as it is.

A *memory's* confidence is how far the coach can rely on it, and the athlete's own word is
the strongest evidence there is:

- **Confirming** a proposal, as proposed or edited, stores the memory as `high`, shown as
  "Confirmed by you". Counting a memory again on confirm does the same (the M13 rule of three
  occurrences still applies to memories nobody confirmed). The one exception is an *imported*
  proposal confirmed unchanged: it keeps the confidence its file recorded, so an export read
  back gives the same memories (as it keeps their dates and counts, domain.import_marks).
- **Writing** a memory (Add) and **editing** one store `high`: "Confirmed by you".
- **Merging** two memories (domain.merges) stores the kept one as `high`: the athlete chose its
  wording, which is their own word on it.
- **Restoring** a version from the History brings back its statement, type and tags, never a
  lower confidence: choosing a version is confirming it, so the memory stays "Confirmed by you"
  and the History's new "Earlier version restored" event says so too.
- Nothing else changes a memory's confidence. `medium` and `low` memories are those nobody
  confirmed in this app (loaded as demo data, imported as they were, or stored before this
  rule); they keep the rules' label until the athlete edits or restores them.

So the label on a memory is read from its stored confidence alone (no history lookup per
card), and the History's confidence lines use the same words: the two always agree.
"""

from __future__ import annotations

from domain.enums import MemoryConfidence

CONFIRMED = MemoryConfidence.HIGH
"""The confidence of anything the athlete confirmed, wrote, edited or restored."""


def confirmed(confidence: MemoryConfidence) -> bool:
    """Whether a memory of this confidence is shown as "Confirmed by you"."""
    return confidence == CONFIRMED


def on_confirm(proposed: MemoryConfidence, *, imported_unchanged: bool) -> MemoryConfidence:
    """The confidence a confirmed proposal's memory gets (see the module's rules)."""
    return proposed if imported_unchanged else CONFIRMED
