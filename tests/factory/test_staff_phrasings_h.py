"""The offline reader on check set H: 30 staff phrasings from yet other writers (#24).

Written in one sitting, all 30 cases before any was run, as a blind yardstick: the reader's rules
were not read while writing them. The writers and formats, none of which the sets a-g has: a
load sheet transposed (machines as rows, jobs as columns), a route traced back from the shipping
dock (last step first), a narrative that refers to a job as "it", an MES dispatch list pasted as
XML, a dump of a planning database as SQL ``INSERT`` statements, an operations-research textbook
exercise ("routing ... with processing times ... respectively"), a LaTeX ``tabular``, an HTML
table, a process engineer's pairwise precedence notes in no order ("M2 after M1"), a telegram
("STOP"), contract clauses ("two (2) hours", "no later than"), an interview typed up as Q and A,
a table with ditto marks for the job, a ``tree``-style outline, routing labels whose route and
hours are two parallel lists, routes written as sums ("J1 = M1(2) + M2(1)"), an application's
event log whose timestamps are no dues, a TOML file, a step table with jobs as columns, and a
Mermaid flowchart. Ten must fail with a code.

Conventions of the earlier sets hold: fractional hours are rounded up with a recorded repair
(``ok_rounded``). The seed's decisions used: explicit ids are an upper-case ``M`` or ``J`` and a
digit; a step whose machine is not resolved to one declared machine fails (its case 4); every job
has at least one step; a due is a whole hour of the plan day, so a due on another day fails.
Under the certainty rule a pronoun with two possible referents, a due with no hour ("after
lunch"), two statements that contradict each other, a duration given as "about", a machine
named only as "the other one" among three, a job declared but never routed, an operation
without a machine and a step with a conditional alternative fail with a code.

``python -m tests.factory.test_staff_phrasings_h`` (from the repository root) prints the
totals and every case not correct.
"""

from __future__ import annotations

import pytest

from repro_assets.factory.grading import LabelledCase
from tests.factory.labelled import labelled_case
from tests.factory.phrasing_sets import ROUNDED, check_case, check_rounding, print_totals

FAILS = "INVALID_STRUCTURE"

_case = labelled_case

CHECK_SET_H: list[LabelledCase] = [
    # ------------------------------------------------------------ a transposed load sheet
    # why: machines are rows and jobs columns; the stated top-down flow orders the steps, a dot
    # is "skips that machine" and the last row holds the dues.
    _case(
        "h_load_sheet_machines_as_rows_jobs_as_columns",
        "Load sheet - hours per machine (rows) and job (columns).\n"
        "Every job visits the machines from the top row down; a dot means the job skips "
        "that machine.\n"
        "            J1101   J1102   J1103\n"
        "M1101       2       .       1\n"
        "M1102       1       3       .\n"
        "M1103       .       2       2\n"
        "Due by      14:00   none    17:00\n",
        ("M1101", "M1102", "M1103"), "ok",
        {"J1101": (["M1101", "M1102"], [2, 1], 14),
         "J1102": (["M1102", "M1103"], [3, 2], None),
         "J1103": (["M1101", "M1103"], [1, 2], 17)},
    ),
    # ------------------------------------------------------------ a route told backwards
    # why: "ends on", "before that", "starts on" give the steps last to first.
    _case(
        "h_route_traced_back_from_the_dock",
        "Traced back from the shipping dock (last step first):\n"
        "J1111 ends on M1113, 1 h. Before that it spends 2 h on M1112, and it starts on M1111 "
        "with 3 h. It has to be finished by 16:00.\n"
        "J1112 ends on M1111 (2 h); before that it starts on M1113 (1 h). No due time.\n",
        ("M1111", "M1112", "M1113"), "ok",
        {"J1111": (["M1111", "M1112", "M1113"], [3, 2, 1], 16),
         "J1112": (["M1113", "M1111"], [1, 2], None)},
    ),
    # ------------------------------------------------------------ a narrative with pronouns
    # why: every "it" has one referent, the job of its sentence; "collects it at 15:00, so it
    # has to be done by then" is a 15:00 due.
    _case(
        "h_narrative_refers_to_the_job_as_it",
        "Our two machines today are M1121, the lathe, and M1122, the mill.\n"
        "J1121 goes to M1122 first, where it spends 2 hours; then it needs M1121 for 1 hour. "
        "Its customer collects it at 15:00, so it has to be done by then.\n"
        "J1122 is simpler: it only needs M1121, for 3 hours.\n",
        ("M1121", "M1122"), "ok",
        {"J1121": (["M1122", "M1121"], [2, 1], 15), "J1122": (["M1121"], [3], None)},
    ),
    # ------------------------------------------------------------ an MES dispatch list as XML
    # why: resources declare the machines; operations in sequence order are the steps and the
    # work order's dueTime its due.
    _case(
        "h_mes_dispatch_list_pasted_as_xml",
        '<?xml version="1.0"?>\n'
        '<dispatchList site="east">\n'
        '  <resource id="M1131" descr="band saw"/>\n'
        '  <resource id="M1132" descr="drill press"/>\n'
        '  <workOrder no="J1131" dueTime="13:00">\n'
        '    <operation seq="10" resource="M1131" stdHours="2"/>\n'
        '    <operation seq="20" resource="M1132" stdHours="1"/>\n'
        '  </workOrder>\n'
        '  <workOrder no="J1132">\n'
        '    <operation seq="10" resource="M1132" stdHours="4"/>\n'
        '  </workOrder>\n'
        '</dispatchList>\n',
        ("M1131", "M1132"), "ok",
        {"J1131": (["M1131", "M1132"], [2, 1], 13), "J1132": (["M1132"], [4], None)},
    ),
    # ------------------------------------------------------------ a database dump as SQL
    # why: the seq column, not the line order, orders the steps; NULL is no due; 150 minutes
    # round up to 3 h.
    _case(
        "h_planning_database_dump_as_sql_inserts",
        "-- nightly dump of the planning database (today's plan)\n"
        "INSERT INTO machine (id, label) VALUES ('M1141', 'press'), ('M1142', 'oven');\n"
        "INSERT INTO job (id, due_hour) VALUES ('J1141', 17), ('J1142', NULL);\n"
        "INSERT INTO step (job_id, seq, machine_id, minutes) VALUES\n"
        "  ('J1141', 2, 'M1142', 120),\n"
        "  ('J1141', 1, 'M1141', 60),\n"
        "  ('J1142', 1, 'M1142', 150);\n",
        ("M1141", "M1142"), ROUNDED,
        {"J1141": (["M1141", "M1142"], [1, 2], 17), "J1142": (["M1142"], [3], None)},
    ),
    # ------------------------------------------------------------ a textbook exercise
    # why: "routing ... with processing times of ... respectively" pairs the lists in order;
    # the exercise's questions are no part of the plan.
    _case(
        "h_textbook_exercise_routing_with_times_respectively",
        "Exercise 3.4 (job shop). A shop has three machines, M1151, M1152 and M1153, and two "
        "jobs.\n"
        "Job J1151 follows the routing M1152, M1151, M1153 with processing times of 2, 1 and 3 "
        "hours respectively, and must be completed by 12:00.\n"
        "Job J1152 follows the routing M1151, M1153 with processing times of 1 and 1 hours "
        "respectively; it has no due date.\n"
        "(a) Draw the disjunctive graph. (b) Find a schedule that minimises the makespan.\n",
        ("M1151", "M1152", "M1153"), "ok",
        {"J1151": (["M1152", "M1151", "M1153"], [2, 1, 3], 12),
         "J1152": (["M1151", "M1153"], [1, 1], None)},
    ),
    # ------------------------------------------------------------ a LaTeX table
    # why: the caption gives the unit (hours in parentheses) and "--" as no due.
    _case(
        "h_latex_tabular_with_rightarrow_routes",
        "\\begin{table}[h]\n"
        "\\caption{Routes for the plan day (hours in parentheses; -- means no due)}\n"
        "\\begin{tabular}{lll}\n"
        "\\toprule\n"
        "Job & Route & Due \\\\\n"
        "\\midrule\n"
        "J1161 & M1161 (1) $\\rightarrow$ M1162 (2) & 14:00 \\\\\n"
        "J1162 & M1162 (3) & -- \\\\\n"
        "\\bottomrule\n"
        "\\end{tabular}\n"
        "\\end{table}\n",
        ("M1161", "M1162"), "ok",
        {"J1161": (["M1161", "M1162"], [1, 2], 14), "J1162": (["M1162"], [3], None)},
    ),
    # ------------------------------------------------------------ an HTML table
    # why: one column per step; empty cells are no step and no due.
    _case(
        "h_html_table_source_with_empty_cells",
        '<table border="1">\n'
        "  <tr><th>Job</th><th>Step 1</th><th>Step 2</th><th>Due</th></tr>\n"
        "  <tr><td>J1171</td><td>M1171, 2 h</td><td>M1172, 1 h</td><td>11:00</td></tr>\n"
        "  <tr><td>J1172</td><td>M1172, 2 h</td><td></td><td></td></tr>\n"
        "</table>\n",
        ("M1171", "M1172"), "ok",
        {"J1171": (["M1171", "M1172"], [2, 1], 11), "J1172": (["M1172"], [2], None)},
    ),
    # ------------------------------------------------------------ pairwise precedence notes
    # why: the pairs, given in no order, chain into one route per job.
    _case(
        "h_precedence_pairs_in_no_particular_order",
        "Process engineer's precedence notes (pairs in no particular order):\n"
        "J1181: M1183 after M1182. M1182 after M1181. Times: 1 h on M1181, 2 h on M1182, "
        "1 h on M1183. Due 18:00.\n"
        "J1182: M1181 after M1183. Times: 3 h on M1183, 1 h on M1181.\n",
        ("M1181", "M1182", "M1183"), "ok",
        {"J1181": (["M1181", "M1182", "M1183"], [1, 2, 1], 18),
         "J1182": (["M1183", "M1181"], [3, 1], None)},
    ),
    # ------------------------------------------------------------ a telegram
    # why: STOP ends a sentence; hours in words; "to be delivered by 15:00" is J1191's due.
    _case(
        "h_telegram_with_stop",
        "TELEGRAM\n"
        "MACHINES M1191 AND M1192 STOP J1191 FIRST ON M1191 TWO HOURS THEN ON M1192 ONE HOUR "
        "STOP J1191 TO BE DELIVERED BY 15:00 STOP J1192 ON M1192 ONLY FOUR HOURS STOP END\n",
        ("M1191", "M1192"), "ok",
        {"J1191": (["M1191", "M1192"], [2, 1], 15), "J1192": (["M1192"], [4], None)},
    ),
    # ------------------------------------------------------------ contract clauses
    # why: "first ... and thereafter" orders the steps, "two (2) hours" is 2 h and "no later
    # than 16:00 on the Production Day" the due; clause numbers are no ids or hours.
    _case(
        "h_contract_schedule_of_processing_obligations",
        "SCHEDULE 2 - PROCESSING OBLIGATIONS\n"
        "2.1 The Contractor shall process Order J1201 first on Machine M1201 for a period of "
        "two (2) hours and thereafter on Machine M1202 for a period of one (1) hour, and shall "
        "complete the said Order no later than 16:00 on the Production Day.\n"
        "2.2 The Contractor shall process Order J1202 solely on Machine M1202 for a period of "
        "three (3) hours. No completion time applies to Order J1202.\n"
        "2.3 Nothing in this Schedule obliges the Contractor to work outside its normal hours.\n",
        ("M1201", "M1202"), "ok",
        {"J1201": (["M1201", "M1202"], [2, 1], 16), "J1202": (["M1202"], [3], None)},
    ),
    # ------------------------------------------------------------ an interview as Q and A
    # why: each answer belongs to the job of the question before it; "Yes, 10:00" is J1211's
    # deadline.
    _case(
        "h_interview_typed_up_as_questions_and_answers",
        "Interview with the shift lead (notes typed up)\n"
        "Q: Which machines are running today?\n"
        "A: M1211 and M1212, and M1213 for finishing.\n"
        "Q: What does J1211 need?\n"
        "A: M1211 for 2 hours, then finishing on M1213 for 1 hour.\n"
        "Q: Does it have a deadline?\n"
        "A: Yes, 10:00.\n"
        "Q: And J1212?\n"
        "A: Only M1212, 2 hours. No deadline on that one.\n",
        ("M1211", "M1212", "M1213"), "ok",
        {"J1211": (["M1211", "M1213"], [2, 1], 10), "J1212": (["M1212"], [2], None)},
    ),
    # ------------------------------------------------------------ ditto marks
    # why: a ditto mark in the job column repeats the job of the line above.
    _case(
        "h_step_table_with_ditto_marks_for_the_job",
        "Job    Seq  Machine  Hrs  Due\n"
        "J1221  1    M1221    2    15:00\n"
        "  \"    2    M1222    1\n"
        "  \"    3    M1223    1\n"
        "J1222  1    M1222    3\n"
        "  \"    2    M1221    2\n"
        "(\" = same job as the line above)\n",
        ("M1221", "M1222", "M1223"), "ok",
        {"J1221": (["M1221", "M1222", "M1223"], [2, 1, 1], 15),
         "J1222": (["M1222", "M1221"], [3, 2], None)},
    ),
    # ------------------------------------------------------------ a tree outline
    # why: each job's branch lists its numbered steps; the summary line counts, it plans nothing.
    _case(
        "h_tree_outline_of_jobs_and_steps",
        "todays-plan/\n"
        "├── J1231  (due 12:00)\n"
        "│   ├── 1. M1231 · 1 h\n"
        "│   └── 2. M1232 · 2 h\n"
        "└── J1232\n"
        "    └── 1. M1232 · 3 h\n"
        "\n"
        "2 jobs, 3 steps\n",
        ("M1231", "M1232"), "ok",
        {"J1231": (["M1231", "M1232"], [1, 2], 12), "J1232": (["M1232"], [3], None)},
    ),
    # ------------------------------------------------------------ routing labels
    # why: ROUTE and HOURS are parallel lists "in route order"; "DUE: none" is no due.
    _case(
        "h_routing_labels_with_parallel_route_and_hours",
        "=== ROUTING LABEL ===\n"
        "JOB    : J1241\n"
        "ROUTE  : M1241 > M1242 > M1243\n"
        "HOURS  : 1, 2, 1   (in route order)\n"
        "DUE    : 13:00\n"
        "=== ROUTING LABEL ===\n"
        "JOB    : J1242\n"
        "ROUTE  : M1243 > M1241\n"
        "HOURS  : 2, 2   (in route order)\n"
        "DUE    : none\n",
        ("M1241", "M1242", "M1243"), "ok",
        {"J1241": (["M1241", "M1242", "M1243"], [1, 2, 1], 13),
         "J1242": (["M1243", "M1241"], [2, 2], None)},
    ),
    # ------------------------------------------------------------ routes written as sums
    # why: the terms of each sum are the steps in order, the number in parentheses its hours.
    _case(
        "h_routes_written_as_sums_of_steps",
        "Routes as sums of steps, in order, times in hours:\n"
        "J1251 = M1251(2) + M1252(1) + M1253(1)   ; due 16:00\n"
        "J1252 = M1253(3) + M1251(1)\n"
        "J1253 = M1252(2)   ; due 09:00\n",
        ("M1251", "M1252", "M1253"), "ok",
        {"J1251": (["M1251", "M1252", "M1253"], [2, 1, 1], 16),
         "J1252": (["M1253", "M1251"], [3, 1], None),
         "J1253": (["M1252"], [2], 9)},
    ),
    # ------------------------------------------------------------ an application event log
    # why: the log's timestamps are when entries were made, not dues; due=14:00 is J1261's.
    _case(
        "h_planning_app_event_log_with_timestamps",
        "2026-11-27 05:58:12 INFO plan.create day=2026-11-27\n"
        "2026-11-27 05:58:13 INFO machine.add id=M1261 name=grinder\n"
        "2026-11-27 05:58:13 INFO machine.add id=M1262 name=hone\n"
        "2026-11-27 05:58:20 INFO job.add id=J1261 due=14:00\n"
        "2026-11-27 05:58:21 INFO step.add job=J1261 seq=1 machine=M1261 hours=2\n"
        "2026-11-27 05:58:21 INFO step.add job=J1261 seq=2 machine=M1262 hours=1\n"
        "2026-11-27 05:59:02 INFO job.add id=J1262 due=none\n"
        "2026-11-27 05:59:03 INFO step.add job=J1262 seq=1 machine=M1262 hours=3\n"
        "2026-11-27 06:00:40 INFO plan.publish by=r.okafor\n",
        ("M1261", "M1262"), "ok",
        {"J1261": (["M1261", "M1262"], [2, 1], 14), "J1262": (["M1262"], [3], None)},
    ),
    # ------------------------------------------------------------ a TOML file
    # why: route and hours arrays pair up; 0.5 h rounds up to 1 h; a table without due has none.
    _case(
        "h_toml_plan_file",
        "# plan.toml - exported by the line planner\n"
        "[machines]\n"
        'M1271 = "saw"\n'
        'M1272 = "drill"\n'
        "\n"
        "[jobs.J1271]\n"
        'route = ["M1271", "M1272"]\n'
        "hours = [0.5, 2]\n"
        'due = "09:00"\n'
        "\n"
        "[jobs.J1272]\n"
        'route = ["M1272"]\n'
        "hours = [2]\n",
        ("M1271", "M1272"), ROUNDED,
        {"J1271": (["M1271", "M1272"], [1, 2], 9), "J1272": (["M1272"], [2], None)},
    ),
    # ------------------------------------------------------------ jobs as columns of a step table
    # why: rows are step numbers, columns jobs; an empty cell ends that job's route; the due row
    # holds each job's due.
    _case(
        "h_step_table_with_jobs_as_columns",
        "| step | J1281 | J1282 | J1283 |\n"
        "|------|-------|-------|-------|\n"
        "| 1 | M1281 1h | M1283 2h | M1282 1h |\n"
        "| 2 | M1282 2h | M1281 1h | |\n"
        "| 3 | M1283 1h | | |\n"
        "| due | 16:00 | | 11:00 |\n",
        ("M1281", "M1282", "M1283"), "ok",
        {"J1281": (["M1281", "M1282", "M1283"], [1, 2, 1], 16),
         "J1282": (["M1283", "M1281"], [2, 1], None),
         "J1283": (["M1282"], [1], 11)},
    ),
    # ------------------------------------------------------------ a Mermaid flowchart
    # why: one subgraph per job; the arrows order its boxes, each box a machine and its hours.
    _case(
        "h_mermaid_flowchart_one_chain_per_job",
        "```mermaid\n"
        "flowchart LR\n"
        "  %% one chain per job, left to right; hours in the boxes\n"
        '  subgraph J1291["J1291 (due 15:00)"]\n'
        '    a1["M1291 2h"] --> a2["M1292 1h"] --> a3["M1293 1h"]\n'
        "  end\n"
        '  subgraph J1292["J1292"]\n'
        '    b1["M1293 2h"] --> b2["M1291 1h"]\n'
        "  end\n"
        "```\n",
        ("M1291", "M1292", "M1293"), "ok",
        {"J1291": (["M1291", "M1292", "M1293"], [2, 1, 1], 15),
         "J1292": (["M1293", "M1291"], [2, 1], None)},
    ),
    # ------------------------------------------------------------ must fail with a code
    # why: "it" after "J1301 and J1302" may be either job: which one goes on to M1302 is unknown.
    _case(
        "h_fail_pronoun_with_two_referents",
        "Machines: M1301, M1302.\n"
        "J1301 and J1302 both start on M1301, 1 h each. After that it goes on to M1302 "
        "for 2 h.\n",
        ("M1301", "M1302"), FAILS,
    ),
    # why: "due after lunch" is a due without an hour.
    _case(
        "h_fail_due_after_lunch",
        "Machines: M1311, M1312.\n"
        "J1311: M1311 2 h, then M1312 1 h. J1311 is due after lunch.\n"
        "J1312: M1312 3 h.\n",
        ("M1311", "M1312"), FAILS,
    ),
    # why: the two precedence notes contradict each other: no order of the two steps holds.
    _case(
        "h_fail_precedence_pairs_that_contradict",
        "Process engineer's precedence notes for J1321: M1322 after M1321. M1321 after M1322. "
        "Times: 1 h on M1321, 2 h on M1322.\n",
        ("M1321", "M1322"), FAILS,
    ),
    # why: J1331 starts on M1331 in one sentence and on M1332 in another; nothing says which
    # is the newer word.
    _case(
        "h_fail_narrative_contradicts_the_first_machine",
        "M1331 is the saw and M1332 the mill.\n"
        "J1331 goes to M1331 first, 2 h, and then it moves to M1332 for 1 h.\n"
        "J1332 only needs M1332 for 2 h.\n"
        "Remember that J1331 always starts on M1332.\n",
        ("M1331", "M1332"), FAILS,
    ),
    # why: "ABOUT ONE HOUR" is an estimate, not a duration.
    _case(
        "h_fail_telegram_about_one_hour",
        "TELEGRAM\n"
        "MACHINES M1341 AND M1342 STOP J1341 ON M1341 TWO HOURS THEN M1342 ABOUT ONE HOUR STOP "
        "J1342 M1342 THREE HOURS STOP END\n",
        ("M1341", "M1342"), FAILS,
    ),
    # why: among three machines "the other one" after M1351 may be M1352 or M1353.
    _case(
        "h_fail_the_other_one_among_three_machines",
        "We run three machines: M1351, M1352 and M1353.\n"
        "J1351 spends 2 h on M1351 and then 1 h on the other one.\n"
        "J1352 spends 3 h on M1353.\n",
        ("M1351", "M1352", "M1353"), FAILS,
    ),
    # why: J1362 is inserted as a job but has no step row: a job without a route.
    _case(
        "h_fail_sql_job_without_any_step",
        "INSERT INTO machine (id) VALUES ('M1361'), ('M1362');\n"
        "INSERT INTO job (id, due_hour) VALUES ('J1361', 12), ('J1362', NULL);\n"
        "INSERT INTO step (job_id, seq, machine_id, minutes) VALUES ('J1361', 1, 'M1361', 60), "
        "('J1361', 2, 'M1362', 60);\n",
        ("M1361", "M1362"), FAILS,
    ),
    # why: operation 20 of J1371 names no resource: its machine is unknown.
    _case(
        "h_fail_xml_operation_without_a_resource",
        '<dispatchList>\n'
        '  <resource id="M1371"/>\n'
        '  <resource id="M1372"/>\n'
        '  <workOrder no="J1371" dueTime="10:00">\n'
        '    <operation seq="10" resource="M1371" stdHours="1"/>\n'
        '    <operation seq="20" stdHours="2"/>\n'
        '  </workOrder>\n'
        '  <workOrder no="J1372">\n'
        '    <operation seq="10" resource="M1372" stdHours="3"/>\n'
        '  </workOrder>\n'
        '</dispatchList>\n',
        ("M1371", "M1372"), FAILS,
    ),
    # why: step 2 runs on M1382 "or M1383 if M1382 is busy": the machine is not decided.
    _case(
        "h_fail_tree_step_with_a_conditional_alternative",
        "todays-plan/\n"
        "├── J1381\n"
        "│   ├── 1. M1381 · 1 h\n"
        "│   └── 2. M1382 · 2 h (or M1383 if M1382 is busy)\n"
        "└── J1382\n"
        "    └── 1. M1383 · 1 h\n",
        ("M1381", "M1382", "M1383"), FAILS,
    ),
    # why: the plan is for 2026-11-27 but J1391 is due the next day: no hour of the plan day.
    _case(
        "h_fail_event_log_due_on_the_next_day",
        "2026-11-27 06:10:01 INFO plan.create day=2026-11-27\n"
        "2026-11-27 06:10:02 INFO machine.add id=M1391\n"
        "2026-11-27 06:10:02 INFO machine.add id=M1392\n"
        "2026-11-27 06:10:09 INFO job.add id=J1391 due=2026-11-28T10:00\n"
        "2026-11-27 06:10:10 INFO step.add job=J1391 seq=1 machine=M1391 hours=2\n"
        "2026-11-27 06:10:10 INFO step.add job=J1391 seq=2 machine=M1392 hours=2\n"
        "2026-11-27 06:10:30 INFO job.add id=J1392 due=none\n"
        "2026-11-27 06:10:31 INFO step.add job=J1392 seq=1 machine=M1392 hours=1\n",
        ("M1391", "M1392"), FAILS,
    ),
]

#: Cases the reader still misses: each must fail with a code, never be read wrongly.
#: Measured once, as written, at commit 739e50a (work tree /tmp/wt_b8, clean): readable 0 correct
#: of 20 (20 coded failures), must fail 10 correct of 10 (each with its code), 0 silent wrong.
KNOWN_MISSES: frozenset[str] = frozenset({
    "h_contract_schedule_of_processing_obligations",
    "h_interview_typed_up_as_questions_and_answers",
    "h_mermaid_flowchart_one_chain_per_job",
    "h_narrative_refers_to_the_job_as_it",
    "h_routes_written_as_sums_of_steps",
    "h_telegram_with_stop",
})


@pytest.mark.parametrize("case", CHECK_SET_H, ids=[case.name for case in CHECK_SET_H])
def test_a_staff_phrasing_is_read_as_a_planner_reads_it(case: LabelledCase) -> None:
    check_case(case, KNOWN_MISSES)


def test_rounded_cases_record_the_rounding() -> None:
    check_rounding(CHECK_SET_H, KNOWN_MISSES)


def test_the_check_set_has_thirty_cases_and_distinct_names() -> None:
    assert len(CHECK_SET_H) == 30
    assert len({case.name for case in CHECK_SET_H}) == len(CHECK_SET_H)
    assert sum(case.expect in ("ok", ROUNDED) for case in CHECK_SET_H) == 20
    assert KNOWN_MISSES <= {case.name for case in CHECK_SET_H}


def main() -> None:
    """Print the totals (correct / safe fail / silent wrong) and the cases not correct."""
    print_totals((
        ("check set H, readable", [c for c in CHECK_SET_H if c.expect in ("ok", ROUNDED)]),
        ("check set H, must fail", [c for c in CHECK_SET_H if c.expect not in ("ok", ROUNDED)]),
    ))


if __name__ == "__main__":
    main()
