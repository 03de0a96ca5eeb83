# The Go package (go/, module fastmac.dev/go): test-go, go-xcrypto and
# go-bench.
#
# deps-go installs only a Go toolchain: the machine's `go` when it is
# recent enough, else Debian's golang-go, else the pinned toolchain from the
# Go module proxy (into target/go/toolchain). test-go also installs
# staticcheck (go install, into target/go/bin), qemu-user, nettle-dev
# (deps-nettle) and OpenSSH. Modules go to target/go/mod.
.PHONY: test-go deps-go deps-go-test go-xcrypto go-bench

GO_DIR := $(CURDIR)/go
GO_TARGET := $(CURDIR)/target/go
GO := $(GO_TARGET)/bin/go
GO_ENV := GOMODCACHE=$(GO_TARGET)/mod GOFLAGS=-modcacherw GOTOOLCHAIN=local
# staticcheck v0.8.2 needs Go 1.26; the module itself needs 1.24.
GO_MIN := 1.26
GO_TOOLCHAIN := go1.26.8
STATICCHECK_VERSION := v0.8.2
XCRYPTO_VERSION := v0.45.0
XCRYPTO_DIR := $(GO_TARGET)/xcrypto-$(XCRYPTO_VERSION)-umac
# The Go UMAC package measured side by side in go-bench (never a dependency
# of the module); go-bench prints a line and skips when it is absent.
GO_UMAC_PEER ?=

# A go binary at least $(GO_MIN), linked as target/go/bin/go.
deps-go:
	@mkdir -p $(GO_TARGET)/bin
	@recent() { [ -x "$$1" ] && v=$$("$$1" env GOVERSION 2>/dev/null | sed 's/^go//') && \
		[ "$$(printf '%s\n%s\n' $(GO_MIN) "$$v" | sort -V | head -1)" = $(GO_MIN) ]; }; \
	if recent $(GO); then exit 0; fi; \
	found=""; \
	for candidate in "$$(command -v go)" /usr/local/go/bin/go /usr/lib/go/bin/go; do \
		if recent "$$candidate"; then found=$$candidate; break; fi; \
	done; \
	if [ -z "$$found" ] && ! command -v go >/dev/null && [ ! -x /usr/lib/go/bin/go ]; then \
		echo "installing golang-go (Go toolchain)"; \
		$(call apt_install,golang-go ca-certificates); \
		if recent /usr/lib/go/bin/go; then found=/usr/lib/go/bin/go; fi; \
	fi; \
	if [ -z "$$found" ]; then \
		old=$$(command -v go || echo /usr/lib/go/bin/go); \
		arch=$$("$$old" env GOARCH); \
		echo "no Go >= $(GO_MIN) here: fetching the $(GO_TOOLCHAIN) toolchain module from the Go proxy"; \
		tmp=$$(mktemp -d) && (cd $$tmp && printf 'module fetch\n' > go.mod && \
			GOMODCACHE=$(GO_TARGET)/toolchain GOFLAGS=-modcacherw GOTOOLCHAIN=local \
			"$$old" mod download golang.org/toolchain@v0.0.1-$(GO_TOOLCHAIN).linux-$$arch) && rm -rf $$tmp || exit 1; \
		found=$(GO_TARGET)/toolchain/golang.org/toolchain@v0.0.1-$(GO_TOOLCHAIN).linux-$$arch/bin/go; \
		chmod +x $$found $$(dirname $$found)/../pkg/tool/*/* 2>/dev/null; \
	fi; \
	recent "$$found" || { echo "no usable Go >= $(GO_MIN) (found: $$found)"; exit 1; }; \
	ln -sf "$$found" $(GO)

# What test-go runs besides Go: staticcheck, qemu-user and OpenSSH.
deps-go-test: deps-go
	@[ -x $(GO_TARGET)/bin/staticcheck ] || { echo "installing staticcheck $(STATICCHECK_VERSION) into $(GO_TARGET)/bin"; \
		$(GO_ENV) GOBIN=$(GO_TARGET)/bin $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION); }
	@if ! command -v qemu-s390x >/dev/null || ! command -v qemu-aarch64 >/dev/null; then \
		echo "installing qemu-user (the Go tests on s390x and arm64)"; \
		$(call apt_install,qemu-user); \
	fi
	@if [ ! -x /usr/sbin/sshd ] || [ ! -x /usr/bin/ssh ] || [ ! -x /usr/bin/ssh-keygen ]; then \
		echo "installing openssh-server and openssh-client (Go SSH sessions)"; \
		$(call apt_install,openssh-server openssh-client); \
	fi

# golang.org/x/crypto at a pinned version, from the Go module proxy, with
# go/ssh/xcrypto-umac.patch applied: the copy go/ssh's tests build against.
go-xcrypto: $(XCRYPTO_DIR)/.patched
$(XCRYPTO_DIR)/.patched: go/ssh/xcrypto-umac.patch | deps-go
	rm -rf $(XCRYPTO_DIR)
	src=$$($(GO_ENV) $(GO) mod download -json golang.org/x/crypto@$(XCRYPTO_VERSION) | \
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p') && [ -d "$$src" ] && cp -r "$$src" $(XCRYPTO_DIR)
	chmod -R u+w $(XCRYPTO_DIR)
	cd $(XCRYPTO_DIR) && patch -s -p1 < $(GO_DIR)/ssh/xcrypto-umac.patch
	touch $@

# vet and staticcheck on both paths, the tests on both paths, the module's
# own tests outside the repository, the Nettle differential test and the
# race detector (x86_64), the tests on s390x and arm64 under qemu-user, the
# patched x/crypto/ssh's packet-cipher tests, the SSH sessions and their
# negative control (go/test.sh).
TEST_SUITES += test-go
test-go: deps-go-test deps-nettle go-xcrypto
	$(GO_ENV) $(SUITE) -- go/test.sh $(GO) $(GO_TARGET)/bin/staticcheck $(GO_TARGET)

# UMAC-64/128 side by side with the peer Go package, from a throwaway
# module under target/ that replaces both packages by their folders:
# fastmac's MAC, fastmac's SSHHash (through hash.Hash, and through
# SumPacket as the patched golang.org/x/crypto/ssh calls it, with the pieces
# cut from the message and where x/crypto keeps them) and the peer package
# interleaved, GO_BENCH_ROUNDS rounds per sample,
# GO_BENCH_SAMPLES samples, medians (go/bench/sidebyside_test.go); then
# crypto/hmac SHA-256 and x/crypto Poly1305 alone, for scale.
GO_BENCH_ROUNDS ?= 2000
GO_BENCH_SAMPLES ?= 5
go-bench: deps-go
	@if [ ! -d "$(GO_UMAC_PEER)" ]; then \
		echo "go-bench: set GO_UMAC_PEER=DIR to a copy of the Go UMAC package github.com/fakeboboliu/umac to measure against it: skipped"; exit 0; fi; \
	set -eo pipefail; bench=$(CURDIR)/target/go-bench; rm -rf $$bench; mkdir -p $$bench; \
	cp go/bench/sidebyside_test.go go/bench/ratios.awk $$bench/; \
	cd $$bench; \
	$(GO_ENV) $(GO) mod init fastmac.dev/gobench >/dev/null 2>&1; \
	$(GO_ENV) $(GO) mod edit -require=fastmac.dev/go@v0.0.0 -replace=fastmac.dev/go=$(GO_DIR) \
		-require=github.com/fakeboboliu/umac@v0.0.0 -replace=github.com/fakeboboliu/umac=$(abspath $(GO_UMAC_PEER)) \
		-require=golang.org/x/crypto@$(XCRYPTO_VERSION); \
	$(GO_ENV) $(GO) mod tidy; \
	$(GO_ENV) $(GO) test -tags sidebyside -run TestUMACAgreesWithPeer -bench Interleaved \
		-benchtime $(GO_BENCH_ROUNDS)x -count $(GO_BENCH_SAMPLES) | tee bench.txt; \
	$(GO_ENV) $(GO) test -tags sidebyside -run '^$$' -bench 'HMAC|Poly1305' -benchtime 100ms -count 3 | tee -a bench.txt; \
	echo "CPU: $$(lscpu | sed -n 's/^Model name: *//p'); $$($(GO) version); load average $$(cut -d' ' -f1-3 /proc/loadavg)"; \
	awk -f ratios.awk bench.txt
