"""Greek Prefa (``../shared/spec/greek-prefa.md``)."""
