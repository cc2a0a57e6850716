# Sourced (`. scripts/use-node24.sh`), not run: puts Node 24 LTS first on PATH when the
# machine's Node is older. It comes from the npm registry's `node` package, which carries
# the binary and the headers that node-gyp compiles the native addons against (a machine's
# ~/.npmrc may point node-gyp at an older Node's headers, so they are named explicitly).
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 24 ]; then
  node_home="${XDG_CACHE_HOME:-$HOME/.cache}/cloudvault/node24"
  if [ ! -x "$node_home/node_modules/.bin/node" ]; then
    echo "Installing Node 24 from the npm registry into $node_home…"
    npm install --prefix "$node_home" --no-save --no-audit --no-fund node@24 >/dev/null
  fi
  export PATH="$node_home/node_modules/.bin:$PATH"
  npm_package_config_node_gyp_nodedir="$(echo "$node_home"/node_modules/node/node_modules/node-linux-*)"
  export npm_package_config_node_gyp_nodedir
  unset node_home
fi
