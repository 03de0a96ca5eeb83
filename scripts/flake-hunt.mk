# make flake-hunt (outside make test): every test that depends on threads,
# timing, sockets, ports or subprocess scheduling, run many times while a
# CPU hog keeps every core busy (scripts/flake_hunt.py), then a table of
# runs and failures; exit status 1 on any failure. FLAKE_SCALE multiplies
# the run counts (FLAKE_SCALE=0.1 for a quick look), FLAKE_ONLY=NAME,NAME
# runs some. docs/testing.md, "Timing-sensitive tests and the flake hunt",
# says which tests are here and how to add one.
FLAKE_SCALE ?= 1
FLAKE_ONLY ?=
# Thirty runs of each fast test, five of each session suite (minutes a run).
FLAKE_RUNS := 30
FLAKE_SESSION_RUNS := 5
FLAKE_PYENV := $(CURDIR)/target/pytest-flake
FLAKE_PYTEST := FASTMAC_CLI=$(FASTMAC_TEST_CLI) $(FLAKE_PYENV)/bin/python -m pytest -p no:cacheprovider -q
FLAKE_CARGO_TEST := RUSTFLAGS='$(TEST_RUSTFLAGS)' $(CARGO) test -q $(TEST_RUST_BUILD)
FLAKE_OSSH_SUITE := trixie

# The wheel in a venv of its own (run-tests.sh's venv, collecting only).
.PHONY: flake-hunt flake-hunt-venv
flake-hunt-venv: deps deps-python python-wheel test-cli
	PY_TEST_PACKAGES="$(PY_TEST_PACKAGES)" FASTMAC_CLI=$(FASTMAC_TEST_CLI) crates/fastmac-py/run-tests.sh \
		$(PY311) $(WHEEL_DIR) $(FLAKE_PYENV) --co -q tests/test_buffer_race.py

flake-hunt: flake-hunt-venv $(C_TEST_DIR)/test_threads go-xcrypto deps-go-test russh-umac openssh-builds-$(FLAKE_OSSH_SUITE)
	python3 scripts/flake_hunt.py --scale $(FLAKE_SCALE) --only "$(FLAKE_ONLY)" \
		--hunt py-buffer-race $(FLAKE_RUNS) crates/fastmac-py "$(FLAKE_PYTEST) tests/test_buffer_race.py" \
		--hunt py-threads $(FLAKE_RUNS) crates/fastmac-py \
			"$(FLAKE_PYTEST) tests/test_api.py tests/test_safe_apis.py -k 'thread or gil'" \
		--hunt py-ssh-sessions $(FLAKE_SESSION_RUNS) crates/fastmac-py "$(FLAKE_PYTEST) tests -m ssh_session" \
		--hunt rust-threads $(FLAKE_RUNS) . "$(FLAKE_CARGO_TEST) --test umac --test file" \
		--hunt cli-file-threads $(FLAKE_RUNS) . "$(FLAKE_CARGO_TEST) --test cli_file" \
		--hunt gears-udp $(FLAKE_RUNS) . "$(FLAKE_CARGO_TEST) --test gears_scenarios --test gears_cli" \
		--hunt c-threads $(FLAKE_RUNS) . "$(C_TEST_DIR)/test_threads" \
		--hunt go-race $(FLAKE_RUNS) go "$(GO_ENV) $(GO) test -count=1 -race -run 'Concurrently|PadCache' ./umac/" \
		--hunt go-ssh-sessions $(FLAKE_SESSION_RUNS) go/ssh "$(GO_ENV) $(GO) test -count=1 ./... && $(GO_ENV) $(GO) test -count=1 -tags umac_flip_tag ./..." \
		--hunt russh-sessions $(FLAKE_SESSION_RUNS) . "$(RUSSH_SESSIONS)" \
		--hunt openssh-sessions $(FLAKE_SESSION_RUNS) . \
			"$(PY) $(OSSH_SCRIPTS)/sessions.py --label flake-hunt \
			--fastmac $(OSSH_DIR)/$(FLAKE_OSSH_SUITE)/fastmac --flip $(OSSH_DIR)/$(FLAKE_OSSH_SUITE)/flip \
			--stock $(OSSH_DIR)/$(FLAKE_OSSH_SUITE)/stock --work $(OSSH_DIR)/$(FLAKE_OSSH_SUITE)/flake-run"

# The C thread test as test-c builds it (with the other C tests).
$(C_TEST_DIR)/test_threads:
	$(MAKE) --no-print-directory test-c
