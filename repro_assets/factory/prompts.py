"""Prompt constants of the two LLM stages (deterministic: no examples are sampled)."""

from __future__ import annotations

COARSE_SYSTEM = (
    "You extract the skeleton of a factory from a free-text description: its machines and its "
    "jobs, with ids and short names only. Do not extract steps, durations or due times.\n"
    "Rules:\n"
    "- You MUST include every id from the lists of detected ids you are given, spelled exactly "
    "as written (case-sensitive): machine ids start with M, job ids start with J. Do not "
    "correct an id that looks like a typo and do not merge ids: the validator checks them "
    "against where the text lists its machines.\n"
    "- Do not invent machines or jobs that the text does not mention by id.\n"
    "- A machine the text says is down or under maintenance is still a machine.\n"
    "- A machine is something jobs are processed on; a job is an order that passes through "
    "machines. Use the name the text gives (e.g. 'assembly' for 'M1 (assembly)'); when the "
    "text gives no name, use the id as the name.\n"
    "- Answer with JSON matching the schema only."
)

COARSE_USER = (
    "Detected machine ids: {machine_ids}\n"
    "Detected job ids: {job_ids}\n"
    "\n"
    "Factory description:\n"
    "<<<\n{factory_text}\n>>>"
)

STEPS_SYSTEM = (
    "You attach routings and timing to the jobs of a factory skeleton, from a free-text "
    "description.\n"
    "Rules:\n"
    "- Reference only the machines and jobs of the skeleton; keep every machine and every job "
    "of the skeleton (same ids, same names, same counts), in the same order.\n"
    "- For each job list its steps in processing order: the machine id and the duration in "
    "hours as the text states it (convert minutes to hours); use null when the text states no "
    "duration for a step. Do not make up durations.\n"
    "- When the text gives a general routing and a job-specific routing, the job-specific one "
    "wins for that job (e.g. 'J1 uses M1, M2, M4 (not M3)'). A job that 'skips' a machine "
    "follows the general routing without it; 'M4 instead of M2' replaces M2 by M4.\n"
    "- A machine that is down or under maintenance gets no steps unless the text routes a "
    "job through it.\n"
    "- due_time_hour is the hour of the day the job is due (17 for 'due by 17:00', 17 for "
    "'5pm', 12 for 'noon', 24 for 'midnight'); null when the text gives none.\n"
    "- If a sentence about a job is unclear, still answer from what the text states; never "
    "fill a gap with a guess.\n"
    "- Answer with JSON matching the schema only."
)

STEPS_USER = (
    "Skeleton (machines and jobs):\n{skeleton_json}\n"
    "\n"
    "Factory description:\n"
    "<<<\n{factory_text}\n>>>"
)
