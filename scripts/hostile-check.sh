#!/usr/bin/env bash
# Issue 15's bad-input cases, sent with curl to a running stack as a hostile client would:
#   DEV_ISSUER=on npm start            # in one shell (PUBLIC_URL must be the URL below's origin)
#   bash scripts/hostile-check.sh [http://localhost:3000]
# Each line prints the case and the status it got; then the count of 5xx answers (must be 0),
# a check that a refused NUL product was not stored, and that valid requests still answer.
# Needs DEV_ISSUER=on in this shell too (it signs in a throwaway company with the dev issuer).
set -uo pipefail
URL="${1:-http://localhost:3000}"
API="$URL/api/v1"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export DEV_ISSUER="${DEV_ISSUER:-on}"

cli() { npm run -s cli -- "$@"; }
email="hostile-$RANDOM$RANDOM@example.com"
tenant=$(cli tenant:create --name "Hostile Check" --owner "$email")
token=$(cli dev:token --email "$email")
jar=$(mktemp)
trap 'rm -f "$jar"' EXIT
curl -s -o /dev/null -c "$jar" -X POST "$API/session" -H "Authorization: Bearer $token" -H "X-Service-Tenant: $tenant"
cookie="oms_session=$(awk '$6=="oms_session"{print $7}' "$jar")"
origin="$(node -e 'console.log(new URL(process.argv[1]).origin)' "$URL")"

fails=0
total=0
# case NAME METHOD PATH [curl args...]: prints the status, counts 5xx.
case_() {
	local name="$1" method="$2" path="$3"
	shift 3
	local status
	status=$(curl -sg -o /tmp/hostile-body -w '%{http_code}' -X "$method" "$API$path" -H "Cookie: ${as_cookie-$cookie}" -H "Origin: $origin" "$@")
	total=$((total + 1))
	[[ $status == 5* || $status == 000 ]] && fails=$((fails + 1))
	printf '%-3s %-62s %s\n' "$status" "$name" "$(head -c 90 /tmp/hostile-body | tr '\n' ' ')"
}
json=(-H "Content-Type: application/json")
partner=$(curl -s -X POST "$API/products/partners" -H "Cookie: $cookie" -H "Origin: $origin" "${json[@]}" -d '{"name":"Hostile OEM"}' | node -e 'process.stdin.on("data",d=>console.log(JSON.parse(d).id))')
product=$(curl -s -X POST "$API/products" -H "Cookie: $cookie" -H "Origin: $origin" "${json[@]}" -d "{\"oem_partner_id\":\"$partner\",\"name\":\"Clean\"}" | node -e 'process.stdin.on("data",d=>console.log(JSON.parse(d).id))')
nul='bad\u0000name'

echo "== the credential before the body (first: the anonymous requests below spend the address's budget)"
as_cookie="x=y" case_ "POST /products malformed body without a credential (401)" POST /products "${json[@]}" -d '{{{'

echo "== bulkhead: 60 refused calls per kind, then a valid one"
for _ in $(seq 60); do curl -s -o /dev/null -X PATCH "$API/settings/rules/00000000-0000-4000-8000-000000000000" -H "Cookie: $cookie" -H "Origin: $origin" "${json[@]}" -d '{"active":"yes"}'; done
for _ in $(seq 60); do curl -s -o /dev/null "$API/me" -H "Cookie: oms_session=$(printf 'A%.0s' $(seq 43))" -H "X-Service-Tenant: $(printf 't%.0s' $(seq 101))"; done
for _ in $(seq 60); do curl -s -o /dev/null "$API/opportunities?bogus=1" -H "Cookie: $cookie"; done
case_ "PATCH /settings/rules/{id} after 60 refused (answers at once)" PATCH /settings/rules/00000000-0000-4000-8000-000000000000 "${json[@]}" -d '{"active":true}' -m 3
case_ "GET /me after 60 anonymous oversize-tenant requests" GET /me -m 3
case_ "GET /opportunities after 60 unknown-parameter requests" GET /opportunities -m 3

echo "== NUL bytes and lone surrogates"
case_ "POST /api-keys name with NUL" POST /api-keys "${json[@]}" -d "{\"name\":\"$nul\",\"scopes\":[]}"
case_ "POST /products name with NUL" POST /products "${json[@]}" -d "{\"oem_partner_id\":\"$partner\",\"name\":\"$nul\"}"
case_ "PATCH /products/{id} description with NUL" PATCH "/products/$product" "${json[@]}" -d "{\"description\":\"$nul\"}"
case_ "POST /products/partners name with NUL" POST /products/partners "${json[@]}" -d "{\"name\":\"$nul\"}"
case_ "PATCH /profile company_name with NUL" PATCH /profile "${json[@]}" -d "{\"company_name\":\"$nul\"}"
case_ "POST /opportunities/{id}/feedback reason with NUL" POST /opportunities/00000000-0000-4000-8000-000000000000/feedback "${json[@]}" -d "{\"verdict\":\"relevant\",\"reason\":\"$nul\"}"
case_ "POST /products name with a lone surrogate" POST /products "${json[@]}" -d "{\"oem_partner_id\":\"$partner\",\"name\":\"bad\\ud800\"}"
case_ "POST /products/import row with NUL (200, row invalid)" POST /products/import "${json[@]}" -d "[{\"partner\":\"Hostile OEM\",\"name\":\"ok row\"},{\"partner\":\"Hostile OEM\",\"name\":\"$nul\"}]"

echo "== encodings, paths, nesting, credentials"
for enc in gzip deflate br zstd; do case_ "POST /products/partners Content-Encoding: $enc, not compressed" POST /products/partners "${json[@]}" -H "Content-Encoding: $enc" -d '{"name":"x"}'; done
case_ "GET /products/%E0%A4%A (undecodable path)" GET "/products/%E0%A4%A"
case_ "POST /products/partners JSON nested 5,000 deep" POST /products/partners "${json[@]}" -d "{\"name\":$(printf '[%.0s' $(seq 5000))$(printf ']%.0s' $(seq 5000))}"
case_ "GET /opportunities with another company's cursor" GET "/opportunities?cursor=eyJrIjoxLCJpZCI6IngiLCJzIjoieCJ9.AAAAAAAAAAAAAAAAAAAAAA"
case_ "GET /products operator in query" GET "/products?status[\$ne]=x"

echo "== headers"
curl -s -D - -o /dev/null "$API/me" -H "Cookie: $cookie" | grep -iE '^(x-content-type-options|cache-control):' | tr -d '\r'
curl -s -D - -o /dev/null "$URL/readyz" | grep -iE '^x-content-type-options:' | tr -d '\r'

stored=$(curl -s "$API/products" -H "Cookie: $cookie" | node -e 'process.stdin.on("data",d=>console.log(JSON.parse(d).items.map(p=>p.name).sort().join(",")))')
echo "== products stored: $stored (expected: Clean,ok row)"
echo "$total cases, $fails answered 5xx or nothing"
[[ $fails == 0 && $stored == "Clean,ok row" ]]
