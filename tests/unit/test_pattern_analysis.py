from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.pattern_analysis import Observation, new_insights, recurring_injuries

INJURY = MemoryType.INJURY_HISTORY


def knee(ref: str, content: str = "Left knee pain on the long run", occurrences: int = 1) -> Observation:
    return Observation(INJURY, ("body:knee",), content, ref, occurrences)


def test_three_observations_of_one_body_part_make_an_insight() -> None:
    observations = [
        knee("act_1"),
        knee("act_2", "Left knee sore again"),
        knee("act_3", "Knee ached on the hills"),
        Observation(INJURY, ("body:calf",), "Calf tight", "act_4"),
    ]
    [insight] = recurring_injuries(observations)
    assert insight.type is MemoryType.INSIGHT
    assert insight.source is MemorySource.PATTERN_ANALYSIS
    assert insight.content == "Recurring left knee issues: 3 observations"
    assert insight.confidence is MemoryConfidence.HIGH
    assert "body:knee" in insight.tags
    assert insight.evidence == ("act_1", "act_2", "act_3")


def test_two_observations_are_not_a_pattern() -> None:
    assert recurring_injuries([knee("a"), knee("b")]) == []


def test_occurrences_count_towards_the_threshold() -> None:
    [insight] = recurring_injuries([knee("mem_1", occurrences=3)])
    assert insight.evidence == ("mem_1",)
    assert insight.content.endswith("3 observations")


def test_only_injury_memories_count() -> None:
    observations = [Observation(MemoryType.CONTEXT, ("body:knee",), "Knee surgery in 2021", f"m{i}") for i in range(5)]
    assert recurring_injuries(observations) == []


def test_mixed_sides_name_no_side() -> None:
    observations = [knee("a", "Left knee sore"), knee("b", "Right knee sore"), knee("c", "Knee pain")]
    [insight] = recurring_injuries(observations)
    assert insight.content == "Recurring knee issues: 3 observations"


def test_no_duplicate_insight_for_a_body_part_already_covered() -> None:
    observations = [knee(f"act_{i}") for i in range(4)] + [
        Observation(INJURY, ("body:it band",), "Right IT band tight", f"it_{i}") for i in range(3)
    ]
    by_tag = new_insights(observations, [("Knee keeps coming back", ["body:knee", "pattern:recurring_injury"])])
    assert [i.content for i in by_tag] == ["Recurring right IT band issues: 3 observations"]
    by_content = new_insights(observations, [("Recurring left knee issues: 3 observations", [])])
    assert [i.tags[0] for i in by_content] == ["body:it band"]
    assert new_insights(observations, [(i.content, i.tags) for i in recurring_injuries(observations)]) == []
