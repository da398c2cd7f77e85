"""Issue 13's kinds of miss, one test each, on sentences written for these tests (not the labelled sets)."""

from __future__ import annotations

import re

import pytest
import yaml

from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.extraction import extract_memories, tidy
from tests.extraction_eval import DEV_PATH

MESSAGE = MemorySource.USER_MESSAGE
NOTE = MemorySource.ACTIVITY_NOTE
PREFERENCE, CONTEXT = MemoryType.PREFERENCE, MemoryType.CONTEXT
INJURY, RESPONSE = MemoryType.INJURY_HISTORY, MemoryType.TRAINING_RESPONSE


def has_context(text: str, kind: str) -> bool:
    """Whether a message yields a context memory tagged context:<kind>."""
    return any(c.type is CONTEXT and f"context:{kind}" in c.tags for c in extract_memories(text, MESSAGE))


def only(text: str, source: MemorySource = MESSAGE) -> tuple[MemoryType, tuple[str, ...], str]:
    [c] = extract_memories(text, source)
    return c.type, c.tags, c.content


@pytest.mark.parametrize(
    ("text", "tag", "content"),
    [
        ("Evenings suit me because my partner gets home at six.", "time:evening", "Evenings suit the athlete"),
        (
            "Lunchtime is my only window on workdays.",
            "time:lunch",
            "Lunchtime is the athlete's only window on workdays",
        ),
        ("I'd enjoy fartleks more if they were on grass.", "intensity:fartlek", "Would enjoy fartleks"),
        ("I wish I could run trails every weekend.", "intensity:trail", "Wish"),
        ("Give me a long run over a track session any day.", "intensity:long run", "Give the athlete a long run"),
    ],
)
def test_preferences_stated_as_reasons_or_wishes(text: str, tag: str, content: str) -> None:
    type_, tags, said = only(text)
    assert type_ is PREFERENCE
    assert tag in tags
    assert content.lower() in said.lower()


@pytest.mark.parametrize(
    ("text", "type_", "tag"),
    [
        ("Did I mention I really dislike track sessions?", PREFERENCE, "intensity:track"),
        ("Have I told you my right achilles gets stiff in the cold?", INJURY, "body:achilles"),
        ("Did I say I work weekends at the hospital?", CONTEXT, "context:work"),
        ("Is it normal that my hamstrings stay tight for days after sprints?", RESPONSE, "body:hamstring"),
    ],
)
def test_statements_dressed_as_questions(text: str, type_: MemoryType, tag: str) -> None:
    found_type, tags, said = only(text)
    assert (found_type, tag in tags) == (type_, True)
    assert not said.lower().startswith(("did", "have", "is it"))


@pytest.mark.parametrize("text", ["Should I run the hills tomorrow?", "Can my knee take a marathon?"])
def test_real_questions_still_state_nothing(text: str) -> None:
    assert extract_memories(text, MESSAGE) == []


@pytest.mark.parametrize(
    ("text", "tag", "content"),
    [
        ("Don't forget my left knee was operated on in 2019.", "body:knee", "Left knee was operated on in 2019"),
        ("Just a reminder that I broke my right foot in 2022.", "body:foot", "Broke right foot in 2022"),
        ("Heads up, my hip was scoped last year.", "body:hip", "Hip was scoped last year"),
    ],
)
def test_reminders_that_carry_a_fact_are_injury_history(text: str, tag: str, content: str) -> None:
    [c] = extract_memories(text, MESSAGE)
    assert (c.type, tag in c.tags, c.content, c.confidence) == (INJURY, True, content, MemoryConfidence.HIGH)


def test_reminders_to_do_something_still_state_nothing() -> None:
    assert extract_memories("Don't forget to send me Thursday's plan.", MESSAGE) == []


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("Steep descents leave my quads sore for days.", {"body:quad", "intensity:hills"}),
        ("Speed work always makes my calves tight the next day.", {"body:calf", "intensity:speed work"}),
        ("My glutes are always sore after hill repeats.", {"body:glute", "intensity:hill repeats"}),
    ],
)
def test_soreness_from_a_kind_of_session_is_a_training_response(text: str, tags: set[str]) -> None:
    type_, found, _ = only(text)
    assert type_ is RESPONSE
    assert tags <= set(found)


@pytest.mark.parametrize(
    "text",
    ["My calf has been sore since Tuesday's run.", "Hill repeats gave me a calf strain last spring."],
)
def test_a_real_injury_after_a_session_stays_an_injury(text: str) -> None:
    type_, tags, _ = only(text)
    assert (type_, tags) == (INJURY, ("body:calf",))


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("I'm a midwife on rotating shifts.", {"context:work"}),
        ("My job has me travelling to Frankfurt every other week.", {"context:work", "context:travel"}),
        ("I travel for work, so it's hotel gyms most months.", {"context:travel", "context:gym"}),
        ("I do the school run on weekdays.", {"context:kids"}),
        ("I look after my mum on Sundays.", {"context:family"}),
        ("I cycle three times a week with a club.", {"context:cycling"}),
    ],
)
def test_work_travel_and_family_context_carry_their_tags(text: str, tags: set[str]) -> None:
    type_, found, _ = only(text)
    assert type_ is CONTEXT
    assert tags <= set(found)


@pytest.mark.parametrize(
    ("text", "type_", "content"),
    [
        ("Tempo runs always leave them flat.", RESPONSE, "Tempo runs always leave the athlete flat"),
        ("They hate running on the treadmill.", PREFERENCE, "Hates running on the treadmill"),
        ("Her right ankle keeps rolling on trails.", INJURY, "Right ankle keeps rolling on trails"),
    ],
)
def test_notes_about_the_athlete_in_the_third_person(text: str, type_: MemoryType, content: str) -> None:
    found_type, _, said = only(text, NOTE)
    assert (found_type, said) == (type_, content)
    assert "them" not in said.split()


def test_first_person_content_never_says_them() -> None:
    [c] = extract_memories("Long runs in the heat knock me out for a day.", MESSAGE)
    assert c.type is RESPONSE
    assert "them" not in c.content.split()
    assert "the athlete" in c.content


def test_someone_else_in_a_first_person_message_is_still_someone_else() -> None:
    assert extract_memories("My sister hates hills but I don't mind them.", MESSAGE) == []
    assert extract_memories("My husband says his knee hurts.", MESSAGE) == []


THEY = {"they", "them", "their", "theirs", "themselves", "they're", "they've", "they'd", "they'll"}


def test_no_statement_calls_the_athlete_they_or_them() -> None:
    """Every dev text that does not say "they" itself: what the athlete wrote in the first person comes
    back naming "the athlete" or with the subject dropped ("Weekends the athlete likes to go long")."""
    with DEV_PATH.open(encoding="utf-8") as f:
        texts = [str(case["text"]) for case in yaml.safe_load(f)]
    said_they = []
    for text in texts:
        if THEY & set(re.findall(r"[\w'’]+", text.lower().replace("’", "'"))):
            continue
        for source in (MESSAGE, NOTE):
            said_they += [c.content for c in extract_memories(text, source) if THEY & set(c.content.lower().split())]
    assert not said_they, said_they[:5]


@pytest.mark.parametrize(
    ("said", "statement"),
    [
        ("Weekends I like to go long", "Weekends the athlete likes to go long"),
        ("Evenings suit because I and my wife walk", "Evenings suit because the athlete and the athlete's wife walk"),
        ("Weekends I myself go long", "Weekends the athlete goes long"),
        ("Mornings suit when I too am free", "Mornings suit when the athlete too is free"),
        ("Hills are fine but I or my coach pick", "Hills are fine but the athlete or the athlete's coach pick"),
        ("Mornings suit as I don't work", "Mornings suit as the athlete doesn't work"),
    ],
)
def test_a_first_person_mid_sentence_names_the_athlete_with_its_verb(said: str, statement: str) -> None:
    assert tidy._third_person(said) == statement


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("calves wrecked after Tuesday's track session, as always", "intensity:track"),
        ("Like always after tempo runs, I'm totally flat the next morning", "intensity:tempo"),
        ("Hamstrings dead after the squats on Monday. Same as every week.", "context:gym"),
    ],
)
def test_a_reaction_with_its_word_of_habit_apart_is_a_training_response(text: str, tag: str) -> None:
    [found] = extract_memories(text, NOTE)
    assert found.type is RESPONSE and tag in found.tags


@pytest.mark.parametrize(
    "text",
    [
        "Legs wrecked after the race. Did I do this every time?",  # a question doubts the habit
        "Knee pain after the hills, as usual",  # an injury of its own stays an injury
        "Felt great on the hills today, as usual",  # feeling great is no reaction to remember
    ],
)
def test_a_word_of_habit_without_a_reaction_adds_no_response(text: str) -> None:
    assert not any(c.type is RESPONSE for c in extract_memories(text, NOTE))


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("I'm vegetarian, so iron is something I watch.", "context:diet"),
        ("Currently doing intermittent fasting, 16:8.", "context:diet"),
        ("I play netball for the county on Saturdays.", "context:team sport"),
        ("Hockey twice a week plus my running.", "context:team sport"),
    ],
)
def test_diet_and_a_team_sport_are_contexts_with_their_tags(text: str, tag: str) -> None:
    assert any(c.type is CONTEXT and tag in c.tags for c in extract_memories(text, MESSAGE))


def test_one_match_of_a_team_sport_is_no_context() -> None:
    assert not any(c.type is CONTEXT for c in extract_memories("Played hockey today, legs fine.", NOTE))


@pytest.mark.parametrize(
    ("text", "tag", "not_tag"),
    [
        ("I like training by heart rate, never a watch on recovery runs", "intensity:recovery", None),
        ("Long runs feel endless to me, I'd rather break them up", "intensity:long run", None),
        # a time beside a time is a contrast, and a job beside a preference its reason
        ("Lunch runs suit me best, mornings are chaos with the kids", "time:lunch", "time:morning"),
        ("I prefer evening runs, mornings after a night shift are hopeless", "time:evening", "context:work"),
    ],
)
def test_a_preference_takes_the_time_or_session_its_aside_names(text: str, tag: str, not_tag: str | None) -> None:
    [found] = [c for c in extract_memories(text, MESSAGE) if c.type is PREFERENCE]
    assert tag in found.tags and (not_tag is None or not_tag not in found.tags)


def test_early_times_and_sets_of_repetitions_are_tagged() -> None:
    [early] = extract_memories("I prefer to run at 5:30am", MESSAGE)
    assert {"time:early", "time:morning"} <= set(early.tags)
    [reps] = extract_memories("My favourite session is 8x400m on the track", MESSAGE)
    assert "intensity:intervals" in reps.tags


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("I can only run on Tuesdays and Fridays.", "context:schedule"),
        ("Realistically I have 5 hours a week max.", "context:schedule"),
        ("Sundays are out, that's church and lunch with the in-laws.", "context:schedule"),
        ("I've got a rowing machine and some dumbbells in the garage.", "context:equipment"),
        ("We live in a village in the Peak District.", "context:location"),
    ],
)
def test_schedule_equipment_and_location_are_contexts_with_their_tags(text: str, tag: str) -> None:
    assert any(c.type is CONTEXT and tag in c.tags for c in extract_memories(text, MESSAGE))


@pytest.mark.parametrize(
    "text",
    [
        "I have a treadmill session tomorrow.",  # a session, not what the athlete owns
        "Got a gym session in after work.",
        "I can run on the track if it's open.",
    ],
)
def test_a_session_or_a_maybe_is_no_equipment_or_schedule(text: str) -> None:
    assert not any(
        c.type is CONTEXT and {"context:equipment", "context:schedule"} & set(c.tags)
        for c in extract_memories(text, MESSAGE)
    )


def test_a_reminder_is_one_context_with_the_tags_of_its_asides() -> None:
    [found] = extract_memories("Remember I can only train three days a week, the rest is for my kids.", MESSAGE)
    assert found.type is CONTEXT and {"context:schedule", "context:kids"} <= set(found.tags)


@pytest.mark.parametrize(
    "text",
    [
        "I was diagnosed with rheumatoid arthritis two years ago.",
        "Gout flares in my big toe every few months.",
        "I've had tinnitus since a gig in my twenties.",
    ],
)
def test_a_condition_of_the_whole_body_is_context_health(text: str) -> None:
    found = extract_memories(text, MESSAGE)
    assert any(c.type is CONTEXT and "context:health" in c.tags for c in found)
    assert not any(c.type is INJURY and not c.tags for c in found)  # no injury without a body part


@pytest.mark.parametrize(
    "text",
    [
        "Sportive in the Dales booked for June, 160km.",
        "I've got a rowing regatta in Henley in July.",
        "I want to get my 2k erg down to 7 minutes by spring.",
        "The county championships in May are the big one, we're going for the title.",
    ],
)
def test_an_event_or_a_target_of_any_sport_is_a_goal(text: str) -> None:
    assert has_context(text, "goal")


@pytest.mark.parametrize(
    "text",
    ["Did a race in March and it went badly.", "My blood test is next week.", "I want to get out more on weekends."],
)
def test_a_past_event_or_an_errand_is_no_goal(text: str) -> None:
    assert not any("context:goal" in c.tags for c in extract_memories(text, MESSAGE))


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Short track sessions are much better for me than long tempos.", "intensity:track"),
        ("Evenings only for training, the mornings are the school run.", "time:evening"),
        ("My own runs have to be at lunch, the rest of the day is meetings.", "time:lunch"),
    ],
)
def test_a_kind_or_a_time_weighed_for_the_athlete_is_a_preference(text: str, tag: str) -> None:
    assert any(c.type is PREFERENCE and tag in c.tags for c in extract_memories(text, MESSAGE))


def test_days_the_athlete_can_train_are_a_schedule_not_a_preference() -> None:
    found = extract_memories("I can train Tuesday, Thursday and Sunday only.", MESSAGE)
    assert [c.type for c in found] == [CONTEXT] and "context:schedule" in found[0].tags


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Left shoulder pinching at the top of the stroke again.", "body:shoulder"),
        ("Jammed my middle finger at volleyball, strapped it.", "body:finger"),
        ("Pec strain from the bench press, two weeks now.", "body:chest"),
        ("Pain deep in the buttock on long runs for a month.", "body:glute"),
        ("Knee hyperextends when I land from jumps.", "body:knee"),
    ],
)
def test_more_words_of_injury_and_body_are_read(text: str, tag: str) -> None:
    assert any(c.type is INJURY and tag in c.tags for c in extract_memories(text, NOTE))


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Box jumps leave my ankles stiff the next day.", "body:ankle"),
        ("Backstroke makes my neck ache for hours.", "body:neck"),
        ("Long climbs always leave my forearms pumped.", "body:forearm"),
    ],
)
def test_what_a_session_leaves_a_body_part_as_is_a_training_response(text: str, tag: str) -> None:
    found = extract_memories(text, NOTE)
    assert [c.type for c in found] == [RESPONSE] and tag in found[0].tags


def test_what_an_accident_left_a_body_part_as_stays_an_injury() -> None:
    assert [c.type for c in extract_memories("The crash left my knee swollen.", NOTE)] == [INJURY]


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        # a stay somewhere for work
        ("I'm in Oslo for work till May, the hotel has a treadmill.", {"context:travel", "context:work"}),
        ("Off to Lyon for work until March.", {"context:travel", "context:work"}),
        # work away from home, and fixed office hours
        ("I work offshore on a supply vessel.", {"context:work"}),
        ("My office hours are 8 to 6.", {"context:work"}),
        # the place without a subject, or a move between two places
        ("Live in Quito these days, so everything is at altitude.", {"context:location"}),
        ("We moved from Hull to Perth in the spring.", {"context:location"}),
        # a diet kept for years or strictly
        ("I've been veggie since uni.", {"context:diet"}),
        ("I am strict vegan.", {"context:diet"}),
        # a partner, a puppy, the children's fixed activities
        ("My husband works nights so mornings are mine.", {"context:family"}),
        ("My partner and I are expecting twins in June.", {"context:family"}),
        ("We've just got a new puppy.", {"context:family"}),
        ("The kids' rugby is Saturday mornings so that day is out.", {"context:kids"}),
        ("Kids have gymnastics on Fridays.", {"context:kids"}),
        ("After work I'm on mum duty until bedtime.", {"context:kids"}),
    ],
)
def test_life_around_training_told_without_the_usual_words_is_context(text: str, tags: set[str]) -> None:
    assert any(c.type is CONTEXT and tags <= set(c.tags) for c in extract_memories(text, MESSAGE))


@pytest.mark.parametrize("text", ["I'm up at 5 for work.", "Off to Lyon for work next week."])
def test_an_early_start_or_a_one_off_trip_for_work_is_no_travel(text: str) -> None:
    assert not any("context:travel" in c.tags for c in extract_memories(text, MESSAGE))


@pytest.mark.parametrize(
    "text",
    [
        "My blood pressure runs high, the GP is keeping an eye on it.",
        "Back running after a heart attack two years ago.",
        "Paraplegic since a climbing fall, I race in a day chair.",
        "Bad hay fever from May to July.",
        "I'm allergic to bee stings so I carry a pen.",
        "Ferritin came back at 12 last month.",
    ],
)
def test_more_conditions_the_athlete_lives_with_are_health(text: str) -> None:
    assert has_context(text, "health")


def test_an_allergy_cut_off_before_its_cause_is_nothing() -> None:
    assert extract_memories("I'm no longer allergic to...", MESSAGE) == []


@pytest.mark.parametrize(
    "text",
    [
        "The long ride has to be Sunday, no way around it.",
        "Long runs will have to go midweek while the house move happens.",
        "Friday is my only free day.",
        "My sitter can only do Tuesdays and Thursdays.",
    ],
)
def test_a_session_bound_to_a_day_or_the_one_free_day_is_a_schedule(text: str) -> None:
    assert has_context(text, "schedule")


@pytest.mark.parametrize(
    "text",
    [
        "My dad's in hospital again so everything is up in the air.",
        "Being a carer means I never know when I'll get out.",
        "I can't leave my father on his own for long.",
    ],
)
def test_a_parent_who_is_ill_or_needs_care_is_family(text: str) -> None:
    assert has_context(text, "family")


@pytest.mark.parametrize(
    "text",
    [
        "The Dublin one is the goal.",
        "Week 6 of 16 for Chicago, legs ok.",
        "I'm doing Berlin in September.",
        "I want to run the Bay 10k in June.",
    ],
)
def test_an_event_named_only_by_its_name_is_a_goal(text: str) -> None:
    assert has_context(text, "goal")


def test_an_event_already_run_is_no_goal() -> None:
    assert extract_memories("I ran the Bay 10k in June.", NOTE) == []


@pytest.mark.parametrize(
    "text",
    [
        "Hill reps knacker me for days.",
        "Burpee ladders gas me out every time.",
        "After a 20-miler my legs are trashed for the rest of the week.",
        "Double threshold days take me two days to shake off.",
    ],
)
def test_a_reaction_that_lasts_is_a_training_response_whatever_the_session(text: str) -> None:
    assert any(c.type is RESPONSE for c in extract_memories(text, MESSAGE))


@pytest.mark.parametrize(
    "text",
    [
        "Chest infections knock me out for a week.",  # an illness, not a session
        "I was wrecked for two days after the wedding.",  # one time
    ],
)
def test_a_lasting_reaction_to_no_session_is_no_training_response(text: str) -> None:
    assert not any(c.type is RESPONSE for c in extract_memories(text, MESSAGE))


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Track Tuesdays. Love them.", "intensity:track"),
        ("Started open water swimming in May and honestly adore it.", "context:swimming"),
        ("Loads of tempo lately, which I really enjoy.", "intensity:tempo"),
    ],
)
def test_a_liking_of_it_takes_its_object_from_before(text: str, tag: str) -> None:
    [c] = [c for c in extract_memories(text, MESSAGE) if c.type is PREFERENCE]
    assert tag in c.tags
    assert " it" not in c.content or len(c.content.split()) > 3


@pytest.mark.parametrize(
    "text",
    ["Got the new plan, thanks. Love it.", "I love it when the sessions are written out in full.", "Hate it."],
)
def test_a_liking_of_it_without_an_object_says_nothing(text: str) -> None:
    assert not [c for c in extract_memories(text, MESSAGE) if c.type is PREFERENCE]
