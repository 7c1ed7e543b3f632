"""What continuous integration reads from ``spade-envs validate``: conditions that fail the run
(``--fail-on``), and the verdicts as SARIF (code scanning) and JUnit XML (test reports).

Everything here is a pure function of the validation reports: the validator decides, these modules only
write its decisions down in the formats CI systems read.
"""

from spade_envs.ci.fail_on import Condition, FailOnError, parse_conditions, tripped
from spade_envs.ci.junit import junit_xml
from spade_envs.ci.sarif import sarif_document

__all__ = ["Condition", "FailOnError", "junit_xml", "parse_conditions", "sarif_document", "tripped"]
