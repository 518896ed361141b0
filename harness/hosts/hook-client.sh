#!/bin/bash
# The fastest per-event client of `harness serve --http`, in bash alone (its /dev/tcp):
#   hook-client.sh HOST URL [HOME [EVENT]]   (the event on stdin; URL is http://HOST:PORT;
#   EVENT names it for hosts whose payload does not: Copilot)
# It answers exactly as `harness hook HOST --http URL` does. Anything but a plain 200 from
# the daemon (nothing listening, a refusal, a timeout, an answer it cannot read) hands over
# to the Python client (harness/cli/hook_client.py), which answers the event itself or
# denies it in the host's format: never open. Token: $HARNESS_TOKEN, else HOME/serve.token;
# timeout: $HARNESS_HOOK_TIMEOUT seconds (default 60); Python: $HARNESS_PYTHON (python3).
export LC_ALL=C
host=$1 url=$2 home=${3:-${HARNESS_HOME:-$HOME/.harness}} name=$4
wait=${HARNESS_HOOK_TIMEOUT:-60}
IFS= read -r -d '' event
here=${BASH_SOURCE[0]%/*}

python_client() {  # $1: why the fast path gave up ("" : nothing listens, just ask again)
    local more=()
    [ -n "$1" ] && more=(--failed "$1")
    [ -n "$name" ] && more+=(--event "$name")
    exec "${HARNESS_PYTHON:-python3}" -S -I "$here/../cli/hook_client.py" "$host" \
        --http "$url" --home "$home" --timeout "$wait" "${more[@]}" <<< "$event"
}

token=$HARNESS_TOKEN
[ -z "$token" ] && { IFS= read -r token < "$home/serve.token"; } 2>/dev/null
address=${url#http://}
address=${address%%/*}
{ exec 3<>"/dev/tcp/${address%:*}/${address##*:}"; } 2>/dev/null || python_client ""
printf 'POST /%s%s?reply=raw HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
    "$host" "${name:+/$name}" "$address" "$token" "${#event}" "$event" >&3 || python_client ""
IFS= read -r -t "$wait" status <&3 || python_client "$url did not answer within $wait s"
case $status in
    "HTTP/1.1 200 "*) ;;
    *) python_client "" ;;  # a refusal: the Python client asks again and says why
esac
code= length=
while IFS= read -r -t "$wait" line <&3; do
    line=${line%$'\r'}
    [ -z "$line" ] && break
    case ${line,,} in
        x-harness-exit:*) code=${line#*: } ;;
        x-harness-stdout-length:*) length=${line#*: } ;;
    esac
done
[[ $code =~ ^-?[0-9]+$ && $length =~ ^[0-9]+$ ]] || python_client "$url answered no harness reply"
out=
[ "$length" -gt 0 ] && { IFS= read -r -N "$length" -t "$wait" out <&3 || python_client "$url answered too little"; }
IFS= read -r -d '' -t "$wait" err <&3
printf '%s' "$out"
printf '%s' "$err" >&2
exit "$code"
