"""The kinds of phrasing the outside development set showed the rules missing, one test per kind, on
sentences written for these tests (not copied from any labelled set)."""

from __future__ import annotations

import pytest

from domain.enums import MemorySource, MemoryType
from domain.extraction import extract_memories

MESSAGE = MemorySource.USER_MESSAGE
NOTE = MemorySource.ACTIVITY_NOTE
CONTEXT, INJURY, RESPONSE = MemoryType.CONTEXT, MemoryType.INJURY_HISTORY, MemoryType.TRAINING_RESPONSE


def found(text: str, source: MemorySource = MESSAGE) -> list[tuple[MemoryType, tuple[str, ...]]]:
    return [(c.type, c.tags) for c in extract_memories(text, source)]


def yields(text: str, type_: MemoryType, tag: str = "", source: MemorySource = MESSAGE) -> bool:
    """A memory of this type (with this tag, when one is given) comes out of the text."""
    return any(t is type_ and (not tag or tag in tags) for t, tags in found(text, source))


@pytest.mark.parametrize(
    ("text", "body"),
    [
        # the session and the habit in one clause, the soreness in another
        ("I like fartlek sessions but they always leave my calves sore the day after.", "body:calf"),
        ("Hamstrings tight at 5k, always happens after leg days.", "body:hamstring"),
        # "usual", "like every", "tender"
        ("The usual quad stiffness after the downhill race.", "body:quad"),
        ("Threshold reps done. Glutes sore afterwards, like every threshold session.", "body:glute"),
        ("Track intervals leave my shins tender for a couple of days.", "body:shin"),
    ],
)
def test_soreness_a_kind_of_session_brings_is_a_response(text: str, body: str) -> None:
    assert yields(text, RESPONSE, body, NOTE), found(text, NOTE)
    assert not yields(text, INJURY, source=NOTE)


@pytest.mark.parametrize(
    "text",
    [
        "Right knee started aching at 12k, as it does on every long run lately.",
        "My achilles hurts after every track session.",
    ],
)
def test_an_ache_across_clauses_stays_an_injury(text: str) -> None:
    assert yields(text, INJURY, source=NOTE), found(text, NOTE)


@pytest.mark.parametrize(
    "text",
    [
        "Hip a little tight in the warm-up, gone by the second mile.",
        "Shoulder was sore on Monday from painting the ceiling but it's fine now.",
        "A one-off tweak in the ankle on a kerb.",
        "I used to get a sore back in my twenties but haven't had it since.",
    ],
)
def test_a_complaint_that_went_is_no_injury(text: str) -> None:
    assert not yields(text, INJURY, source=NOTE), found(text, NOTE)


@pytest.mark.parametrize(
    "text",
    [
        "Main goal this season is a sub-90 half.",
        "Dream goal: the Western States 100.",
        "Target race is the Manchester marathon in April.",
        "I'm planning to do my first ultra next spring.",
        "I want to break 45 minutes for 10k this year.",
        "I'd love to finish an ironman before I'm 50.",
    ],
)
def test_goals_as_headings_and_plans(text: str) -> None:
    assert yields(text, CONTEXT, "context:goal"), found(text)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Heading to the Alps for three weeks in July.", "context:travel"),
        ("We're in Portugal for a fortnight over Easter.", "context:travel"),
        ("Note that I'm away most weekends in September.", "context:travel"),
        ("I live at 1,800m so flat races at sea level feel easy.", "context:altitude"),
        ("Off to Flagstaff next month to train at altitude.", "context:altitude"),
    ],
)
def test_stays_away_and_altitude(text: str, tag: str) -> None:
    assert yields(text, CONTEXT, tag), found(text)


@pytest.mark.parametrize(
    "text",
    ["I'm in a boot for six weeks.", "I'm in recovery for a couple of weeks after the op.", "I'm in pain for days."],
)
def test_a_state_for_some_weeks_is_no_travel(text: str) -> None:
    assert not any("context:travel" in tags for _, tags in found(text)), found(text)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("About me: 38, a pharmacist, two teenage boys, running for a year.", "context:work"),
        ("About me: 38, a pharmacist, two teenage boys, running for a year.", "context:kids"),
        ("I fit my runs around shifts as a paramedic.", "context:work"),
    ],
)
def test_work_and_family_in_a_list_of_facts(text: str, tag: str) -> None:
    assert yields(text, CONTEXT, tag), found(text)


def test_a_number_with_a_thousands_comma_is_one_clause() -> None:
    [c] = extract_memories("We live at 2,400m in the mountains.", MESSAGE)
    assert "2,400m" in c.content


@pytest.mark.parametrize(
    ("text", "type_", "tag"),
    [
        # a statement before a question that opens with "so" or "and"
        ("I've got finals in June, so could we ease off then?", CONTEXT, "context:study"),
        ("My left hamstring has been tight for weeks, and should I stretch it more?", INJURY, "body:hamstring"),
    ],
)
def test_a_statement_before_a_question(text: str, type_: MemoryType, tag: str) -> None:
    assert yields(text, type_, tag), found(text)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Takes me 36h to feel normal after a hilly half.", "intensity:hills"),
        ("Track sessions take so much out of me.", "intensity:track"),
        ("I always race badly the week after a long ride.", "context:cycling"),
        ("My legs feel like concrete for the first mile of every brick run.", "context:triathlon"),
        ("My HRV drops for a day after hard intervals.", "intensity:intervals"),
        ("I usually get a headache after long runs in the heat.", "intensity:long run"),
        ("Recovery runs really help me loosen up after races.", "intensity:recovery"),
        ("Hill sprints cook me every time.", "intensity:hills"),
        ("Per usual my legs were smashed after the parkrun.", "intensity:race"),
    ],
)
def test_responses_phrased_as_effects(text: str, tag: str) -> None:
    assert yields(text, RESPONSE, tag), found(text)


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("My ankle is in a brace for a month after the fall.", "body:ankle"),
        ("My knees are shot after years of squash.", "body:knee"),
        ("Still rehabbing my left calf after the tear in March.", "body:calf"),
        ("I've got a bulging disc so no heavy squats.", "body:back"),
    ],
)
def test_injuries_named_by_treatment_or_state(text: str, body: str) -> None:
    assert yields(text, INJURY, body), found(text)


def test_rehab_exercises_are_no_injury() -> None:
    assert not yields("Did the rehab drills for my hip before work.", INJURY, source=NOTE)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Working long shifts at the warehouse until Christmas.", "context:work"),
        ("I'm on my feet 12 hours a day as a nurse.", "context:work"),
        ("Started a new role and the commute is an hour each way.", "context:commute"),
        ("Cycling home from the office most evenings.", "context:commute"),
        ("I do a lot of pilates, three times a week.", "context:pilates"),
        ("My sleep has been terrible for years.", "context:sleep"),
        ("Remember that I'm allergic to penicillin.", "context:health"),
    ],
)
def test_life_around_training(text: str, tag: str) -> None:
    assert yields(text, CONTEXT, tag), found(text)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("The only slot that works for me is the evening.", "time:evening"),
        ("Mornings drag, I'm way better in the evening.", "time:evening"),
        ("Never been a lunchtime runner, I'm a morning kind of guy.", "time:morning"),
    ],
)
def test_time_preferences_stated_as_what_works(text: str, tag: str) -> None:
    assert yields(text, MemoryType.PREFERENCE, tag), found(text)


@pytest.mark.parametrize(
    ("text", "type_", "tag"),
    [
        ("Three runs a week is about my limit.", RESPONSE, ""),
        ("I'm 58 and recover slowly these days.", RESPONSE, ""),
        ("Mornings please, I'm useless later.", MemoryType.PREFERENCE, "time:morning"),
        ("I like a recovery day after every race.", MemoryType.PREFERENCE, "intensity:recovery"),
        ("What I love most is long slow trail runs.", MemoryType.PREFERENCE, "intensity:long run"),
    ],
)
def test_limits_bare_requests_and_kinds_of_run(text: str, type_: MemoryType, tag: str) -> None:
    assert yields(text, type_, tag), found(text)


@pytest.mark.parametrize(
    ("text", "type_", "tag"),
    [
        ("Hill reps aren't really my cup of tea.", MemoryType.PREFERENCE, "intensity:hill repeats"),
        ("I'd pick a track session every time.", MemoryType.PREFERENCE, "intensity:track"),
        ("Can't beat a Sunday long run, honestly.", MemoryType.PREFERENCE, "intensity:long run"),
        ("Club runs keep me motivated through winter.", MemoryType.PREFERENCE, ""),
        ("I struggle to get motivated for morning runs.", MemoryType.PREFERENCE, "time:morning"),
        ("Totally into trail running these days.", MemoryType.PREFERENCE, "intensity:trail"),
        ("After a long tempo I can hardly move the next day.", RESPONSE, "intensity:tempo"),
        ("My body never recovers well from hilly races.", RESPONSE, ""),
        ("I don't really handle high mileage.", RESPONSE, ""),
        ("Between jobs right now, so lots of free time.", CONTEXT, "context:work"),
        ("I'm on paternity leave until the new year.", CONTEXT, "context:work"),
    ],
)
def test_more_preferences_responses_and_work_in_our_own_words(text: str, type_: MemoryType, tag: str) -> None:
    assert yields(text, type_, tag), found(text)
