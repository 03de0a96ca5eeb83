module fastmac.dev/go

go 1.22
