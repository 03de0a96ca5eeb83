# The reference check: every file reference, numbered section, issue or seed
# number in the tracked files must resolve inside the repository (or be a
# URL). Its own tests run first, so the check cannot pass vacuously.
# Python 3 standard library only; git lists the files.
.PHONY: check-references deps-check-references

deps-check-references:
	@command -v python3 >/dev/null 2>&1 && command -v git >/dev/null 2>&1 || { \
		echo "installing python3 and git (reference check)"; \
		$(call apt_install,python3 git); \
	}

# --strict: code cites a note by its path (docs/gears.md), not by its bare
# file name.
check-references: deps-check-references
	python3 scripts/test_check_references.py -q
	python3 scripts/check_references.py --strict
