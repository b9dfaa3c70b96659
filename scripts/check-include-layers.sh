#!/bin/sh
# Includes go only downward: a file of src/ may include its own layer and the layers below it,
# in the order of docs/ARCHITECTURE.md (cli > app > redis > lock > process > config > util, and
# within redis/: store_factory > redlock > stores > scripts > topology > protocol > transport;
# src/main.cpp is above them all). The documented exception is encoded here too: app/ reaches
# into redis/ only in the three files ARCHITECTURE.md names (the Deployment a target names, the
# endpoint redaction of `dlock config`, bench's own session); anywhere else in app/ it goes
# through lock::Store. A directory of src/ that is not in the order fails as well.
set -eu
cd "$(dirname "$0")/.."

# Layers, top first: a path prefix under src/ and its rank.
layers='main.cpp 100
cli/ 90
app/ 80
redis/store_factory. 70
redis/redlock/ 66
redis/stores/ 65
redis/scripts/ 64
redis/topology/ 63
redis/protocol/ 62
redis/transport/ 61
lock/ 50
process/ 40
config/ 30
util/ 20'

# The files of app/ that may include redis/ (docs/ARCHITECTURE.md, below the layer list).
app_into_redis='app/target.hpp app/show_config.cpp app/bench.cpp'

find src -name '*.cpp' -o -name '*.hpp' | sort | xargs grep -Hn '^#include "' |
    sed -E 's#^src/([^:]+):([0-9]+):\#include "([^"]+)".*#\1 \2 \3#' |
    awk -v layers="$layers" -v exceptions="$app_into_redis" '
        BEGIN {
            n = split(layers, rows, "\n")
            for (i = 1; i <= n; i++) { split(rows[i], f, " "); prefix[i] = f[1]; rank[i] = f[2] }
            split(exceptions, e, " ")
            for (i in e) allowed[e[i]] = 1
        }
        function layer_of(path,   i) {
            for (i = 1; i <= n; i++)
                if (index(path, prefix[i]) == 1) return i
            return 0
        }
        {
            file = $1; line = $2; target = $3
            from = layer_of(file); to = layer_of(target)
            if (from == 0) { print "src/" file ": in no layer of docs/ARCHITECTURE.md"; bad = 1; next }
            if (to == 0) { print "src/" file ":" line ": includes " target ", in no layer"; bad = 1; next }
            if (rank[to] > rank[from]) {
                print "src/" file ":" line ": includes " target " from a higher layer (" \
                      prefix[from] " may include only " prefix[from] " and below)"
                bad = 1
            } else if (prefix[from] == "app/" && index(target, "redis/") == 1 && !(file in allowed)) {
                print "src/" file ":" line ": includes " target "; app/ uses lock::Store, and " \
                      "only " exceptions " include redis/ (docs/ARCHITECTURE.md)"
                bad = 1
            }
        }
        END { exit bad }' >&2 || {
    echo "upward includes: see the layer order in docs/ARCHITECTURE.md" >&2
    exit 1
}
echo "src/: every include goes to its own layer or one below it"
