"""Practice cases and rulings for the training tests: a case on the shipped
``onvoldoende-bod`` tree and practices driven through the wizard's own functions."""

from rulings import wizard
from training.models import TrainingCase
from training.practice import (
    begin_practice,
)

MODEL = [
    ["onbedoeld", "nee"],
    ["voor-de-beurt", "nee"],
    ["lho-accepteert", "nee"],
    ["al-vervangen", "nee"],
    ["vervanging", "vergelijkbaar"],
]


def case(**fields) -> TrainingCase:
    defaults = {
        "tree_slug": "onvoldoende-bod",
        "expected_outcomes": ["b1b"],
        "expected_path": MODEL,
    }
    return TrainingCase(**{**defaults, **fields})


def practise(user, training_case, answers, session=None):
    tree = wizard.start(training_case.tree_slug)
    ruling = begin_practice(user, training_case, session, tree.start, answers[0]).ruling
    for number, answer in enumerate(answers[1:], start=2):
        wizard.answer(ruling, ruling.current_node_key, number, answer, user)
    return ruling


def stayman() -> TrainingCase:
    return TrainingCase.objects.get(slug="ob-stayman-via-cuebid", club__isnull=True)


RIGHT = ["nee", "nee", "nee", "nee", "vergelijkbaar"]
WRONG = ["nee", "nee", "nee", "nee", "andere"]
