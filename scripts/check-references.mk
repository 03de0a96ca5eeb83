# The reference check: every file reference, numbered section, issue or seed
# number in the tracked files must resolve inside the repository (or be a
# URL). Its own tests run first, so the check cannot pass vacuously
# (scripts/check-references.sh). Python 3 standard library only; git lists
# the files.
.PHONY: check-references deps-check-references

deps-check-references:
	@if ! command -v python3 >/dev/null 2>&1 || ! command -v git >/dev/null 2>&1; then \
		echo "installing python3 and git (reference check)"; \
		$(call apt_install,python3 git); \
	fi

TEST_SUITES += check-references
check-references: deps-check-references
	$(SUITE) -- scripts/check-references.sh
