from tests.fixtures.api import api  # noqa: F401
from tests.fixtures.judge import judge, judge_server  # noqa: F401
from tests.fixtures.services import postgres_server, redis_server  # noqa: F401
