-- 0011_run_looks_metric.sql: the metric an --until-decided batch's stopping rule
-- watched. 'collect --until-decided --metric tg' (or pp) stops a cell once that
-- metric alone is decided; the other metric's rows were still collected under a
-- rule that looked after every round (driven by another metric), so its interval
-- keeps paying for looks_to's looks all the same. looks_metric says only which
-- question the batch asked, so that compare and gate can say a cell was decided
-- on one metric. NULL: both metrics (or a fixed design, looks_to NULL).
ALTER TABLE run ADD COLUMN looks_metric TEXT
	CHECK(looks_metric IS NULL OR (looks_metric IN ('pp', 'tg') AND looks_to IS NOT NULL));
