"""What a reader sees: the catalogue of outputs (caption, report section and category of each), LaTeX fragments and
the report, figures, leaderboards as text and as a page, captions, what each table job writes (``jobs``: a
function per output of a rule), one measure's report, the replication page and the measures' documentation."""
