#!/usr/bin/env bash
# Create (or leave alone) the topics listed in topics.yaml. Usage: create-topics.sh BOOTSTRAP TOPICS_YAML
# Reads the simple layout of topics.yaml with awk so the Kafka image needs no YAML parser.
set -euo pipefail
bootstrap="$1"; file="$2"
kt=/opt/kafka/bin/kafka-topics.sh
until "$kt" --bootstrap-server "$bootstrap" --list >/dev/null 2>&1; do echo "waiting for $bootstrap"; sleep 2; done
rf=$(awk '/^defaults:/{d=1} d&&/replication_factor:/{print $2; exit}' "$file")
defaults=$(awk '/^defaults:/{d=1;next} /^topics:/{d=0} d&&/^    [a-z.]+:/{gsub(/ /,""); printf "--config %s ", $0}' "$file" | sed 's/:/=/g')
awk '/^  - name:/{if(n)print n"|"p"|"c; n=$3; p=""; c=""} /partitions:/{p=$2} /^      [a-z.]+:/{c=c"--config "$1$2" "} END{print n"|"p"|"c}' "$file" |
while IFS='|' read -r name parts configs; do
  configs=$(echo "$configs" | sed 's/:/=/g')
  # shellcheck disable=SC2086
  "$kt" --bootstrap-server "$bootstrap" --create --if-not-exists --topic "$name" \
    --partitions "$parts" --replication-factor "$rf" $defaults $configs
done
"$kt" --bootstrap-server "$bootstrap" --describe
