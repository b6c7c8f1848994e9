module certcheck

go 1.22
