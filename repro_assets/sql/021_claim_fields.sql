-- Claims keep the dataset as printed plus a normalized key, the number as printed, the metric's
-- direction and the claim's role (headline / own / baseline / unknown) for the planner.
ALTER TABLE claims ADD COLUMN IF NOT EXISTS dataset_key text NOT NULL DEFAULT '';
ALTER TABLE claims ADD COLUMN IF NOT EXISTS printed_value text;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS lower_is_better boolean NOT NULL DEFAULT false;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS role text NOT NULL DEFAULT 'unknown';
