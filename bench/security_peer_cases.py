"""weakened-security against its peers: cases written by us from the rule examples bandit and
zizmor document (our own text, none of their code or test files), each turned into a delta
(base without the pattern, head with it); negatives are the documented safe forms. Cases marked
out of scope are checks the contract does not give this rule (SQL injection, TLS protocol
versions, self-hosted runners, ...). Standard library only.

Run: python3 bench/security_peer_cases.py target/debug/integrity-gate

At 02f53d9: bandit 20/24 positives (20/20 in scope), 0/8 negatives; zizmor 12/16 (12/12 in
scope), 0/5 negatives. The first run caught bandit 18/24: `app.run(debug=True)` and `cPickle`
were added after it, so these cases are not an unseen test set."""
import json, os, subprocess, sys, tempfile

PY = "app/mod.py"
WF = ".github/workflows/ci.yml"

def py(body, imports=""):
    return {PY: (imports + "\n\ndef f(x, url, data, password, user_input):\n    return None\n",
                 imports + "\n\ndef f(x, url, data, password, user_input):\n" + body + "\n")}

BANDIT = [
    # id, documented insecure form, expected to be caught by weakened-security
    ("B201 flask_debug_true", py("    app.run(debug=True)", "from flask import Flask\napp = Flask(__name__)"), True),
    ("B301 pickle", py("    return pickle.loads(data)", "import pickle"), True),
    ("B301 cPickle load", py("    return cPickle.load(data)", "import cPickle"), True),
    ("B302 marshal", py("    return marshal.loads(data)", "import marshal"), True),
    ("B303/B324 md5 password", py("    return hashlib.md5(password.encode()).hexdigest()", "import hashlib"), True),
    ("B324 hashlib.new md5 password", py("    return hashlib.new('md5', password.encode()).hexdigest()", "import hashlib"), True),
    ("B307 eval", py("    return eval(user_input)"), True),
    ("B102 exec", py("    exec(user_input)"), True),
    ("B323 unverified context", py("    return ssl._create_unverified_context()", "import ssl"), True),
    ("B501 requests verify=False", py("    return requests.get(url, verify=False)", "import requests"), True),
    ("B501 httpx verify=False", py("    return httpx.get(url, verify=False)", "import httpx"), True),
    ("B502 ssl bad version", py("    return ssl.wrap_socket(x, ssl_version=ssl.PROTOCOL_SSLv3)", "import ssl"), False),
    ("B504 ssl no version", py("    return ssl.wrap_socket(x)", "import ssl"), False),
    ("B506 yaml.load", py("    return yaml.load(data)", "import yaml"), True),
    ("B506 yaml.load Loader=Loader", py("    return yaml.load(data, Loader=yaml.Loader)", "import yaml"), True),
    ("B507 paramiko AutoAddPolicy", py("    x.set_missing_host_key_policy(paramiko.AutoAddPolicy())", "import paramiko"), True),
    ("B602 popen shell=True", py("    return subprocess.Popen('ls ' + user_input, shell=True)", "import subprocess"), True),
    ("B604 any function shell=True", py("    return run_command(user_input, shell=True)"), True),
    ("B605 os.system", py("    os.system('ls ' + user_input)", "import os"), True),
    ("B605 os.popen", py("    return os.popen(user_input)", "import os"), True),
    ("B609 wildcard", py("    os.system('tar cf out.tar *')", "import os"), False),
    ("B701 jinja2 autoescape=False", py("    return jinja2.Environment(autoescape=False)", "import jinja2"), True),
    ("B105-style jwt literal key", py("    return jwt.encode({'a': 1}, 'secret')", "import jwt"), True),
    ("B608 sql string", py("    return cursor.execute('SELECT * FROM t WHERE a = ' + user_input)"), False),
]
BANDIT_CLEAN = [
    ("yaml.safe_load", py("    return yaml.safe_load(data)", "import yaml")),
    ("yaml.load SafeLoader", py("    return yaml.load(data, Loader=yaml.SafeLoader)", "import yaml")),
    ("subprocess list", py("    return subprocess.run(['ls', user_input])", "import subprocess")),
    ("requests verify ca", py("    return requests.get(url, verify='/etc/ca.pem')", "import requests")),
    ("md5 checksum", py("    return hashlib.md5(data).hexdigest()", "import hashlib")),
    ("paramiko RejectPolicy", py("    x.set_missing_host_key_policy(paramiko.RejectPolicy())", "import paramiko")),
    ("jinja2 autoescape", py("    return jinja2.Environment(autoescape=True)", "import jinja2")),
    ("literal shell", py("    return subprocess.run('git status', shell=True)", "import subprocess")),
]

def wf(base_steps, head_steps, base_top="on: [push]\n", head_top=None, base_job="", head_job=None):
    head_top = base_top if head_top is None else head_top
    head_job = base_job if head_job is None else head_job
    t = lambda top, job, steps: f"name: ci\n{top}jobs:\n  build:\n    runs-on: ubuntu-latest\n{job}    steps:\n{steps}"
    return {WF: (t(base_top, base_job, base_steps), t(head_top, head_job, head_steps))}

SHA = "8e5e7e5ab8b370d6c329ec480221332ada57f0ab"
ZIZMOR = [
    ("template-injection issue title", wf("      - run: echo hi\n", "      - run: echo \"${{ github.event.issue.title }}\"\n"), True),
    ("template-injection head_ref", wf("      - run: echo hi\n", "      - run: git checkout ${{ github.head_ref }}\n"), True),
    ("template-injection comment body in github-script", wf("      - run: echo hi\n",
        "      - uses: actions/github-script@v7\n        with:\n          script: console.log(\"${{ github.event.comment.body }}\")\n"), True),
    ("dangerous-triggers pull_request_target + checkout head", wf(
        f"      - uses: actions/checkout@{SHA}\n        with:\n          ref: ${{{{ github.event.pull_request.head.sha }}}}\n",
        f"      - uses: actions/checkout@{SHA}\n        with:\n          ref: ${{{{ github.event.pull_request.head.sha }}}}\n",
        base_top="on: [pull_request]\n", head_top="on: [pull_request_target]\n"), True),
    ("dangerous-triggers workflow_run + checkout head_sha", wf(
        "      - run: echo hi\n",
        f"      - uses: actions/checkout@{SHA}\n        with:\n          ref: ${{{{ github.event.workflow_run.head_sha }}}}\n",
        base_top="on:\n  workflow_run:\n    workflows: [ci]\n"), True),
    ("dangerous-triggers pull_request_target alone", wf("      - run: echo hi\n", "      - run: echo hi\n",
        base_top="on: [pull_request]\n", head_top="on: [pull_request_target]\n"), False),
    ("excessive-permissions write-all", wf("      - run: echo hi\n", "      - run: echo hi\n",
        base_top="on: [push]\npermissions:\n  contents: read\n", head_top="on: [push]\npermissions: write-all\n"), True),
    ("excessive-permissions job write scope", wf("      - run: echo hi\n", "      - run: echo hi\n",
        base_job="    permissions:\n      contents: read\n", head_job="    permissions:\n      contents: write\n"), True),
    ("unpinned-uses sha to tag", wf(f"      - uses: actions/setup-node@{SHA}\n", "      - uses: actions/setup-node@v4\n"), True),
    ("unpinned-uses sha to branch", wf(f"      - uses: actions/setup-node@{SHA}\n", "      - uses: actions/setup-node@main\n"), True),
    ("unpinned-uses new unpinned action", wf("      - run: echo hi\n", "      - uses: someone/action@main\n"), False),
    ("insecure-commands", wf("      - run: echo hi\n", "      - run: echo hi\n        env:\n          ACTIONS_ALLOW_UNSECURE_COMMANDS: true\n"), True),
    ("overprovisioned-secrets toJSON", wf("      - run: echo hi\n", "      - run: ./deploy.sh\n        env:\n          ALL: ${{ toJSON(secrets) }}\n"), True),
    ("artipacked persist-credentials", wf("      - run: echo hi\n", f"      - uses: actions/checkout@{SHA}\n"), False),
    ("github-env write from untrusted", wf("      - run: echo hi\n", "      - run: echo \"X=${{ github.event.issue.body }}\" >> $GITHUB_ENV\n"), True),
    ("self-hosted-runner", {WF: ("name: ci\non: [push]\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n",
                                 "name: ci\non: [push]\njobs:\n  b:\n    runs-on: self-hosted\n    steps:\n      - run: echo\n")}, False),
]
ZIZMOR_CLEAN = [
    ("env indirection", wf("      - run: echo hi\n", "      - run: echo \"$TITLE\"\n        env:\n          TITLE: ${{ github.event.issue.title }}\n")),
    ("number is not controllable", wf("      - run: echo hi\n", "      - run: echo ${{ github.event.pull_request.number }}\n")),
    ("sha to sha", wf(f"      - uses: actions/setup-node@{SHA}\n", "      - uses: actions/setup-node@b4ffde65f46336ab88eb53be808477a3936bae11\n")),
    ("tag to tag", wf("      - uses: actions/setup-node@v3\n", "      - uses: actions/setup-node@v4\n")),
    ("permissions narrowed", wf("      - run: echo hi\n", "      - run: echo hi\n",
        base_top="on: [push]\npermissions: write-all\n", head_top="on: [push]\npermissions:\n  contents: read\n")),
]

def run(bin_path, files):
    with tempfile.TemporaryDirectory() as d:
        g = lambda *a: subprocess.run(["git", *a], cwd=d, check=True, capture_output=True)
        g("init", "-q", "-b", "main"); g("config", "user.email", "a@b"); g("config", "user.name", "a")
        for path, (base, _) in files.items():
            os.makedirs(os.path.dirname(os.path.join(d, path)), exist_ok=True)
            open(os.path.join(d, path), "w").write(base)
        g("add", "-A"); g("commit", "-qm", "base")
        for path, (_, head) in files.items():
            open(os.path.join(d, path), "w").write(head)
        g("commit", "-qam", "head")
        out = subprocess.run([bin_path, "diff", "HEAD~1", "--head", "HEAD", "--format", "json"], cwd=d, capture_output=True, text=True)
        found = json.loads(out.stdout)["findings"]
        return [f for f in found if f["rule"] == "weakened-security"]

def main():
    bin_path = os.path.abspath(sys.argv[1])
    for suite, positives, negatives in [("bandit", BANDIT, BANDIT_CLEAN), ("zizmor", ZIZMOR, ZIZMOR_CLEAN)]:
        caught = 0
        in_scope = [c for c in positives if c[2]]
        for name, files, scoped in positives:
            hits = run(bin_path, files)
            mark = "caught" if hits else "missed"
            caught += bool(hits) and scoped
            print(f"{suite}\t{mark}\t{'in-scope' if scoped else 'out-of-scope'}\t{name}\t{hits[0]['message'][:90] if hits else ''}")
        fp = 0
        for name, files in negatives:
            hits = run(bin_path, files)
            fp += bool(hits)
            print(f"{suite}\t{'FALSE-POSITIVE' if hits else 'clean'}\tnegative\t{name}\t{hits[0]['message'][:90] if hits else ''}")
        total_caught = sum(1 for name, files, s in positives if run(bin_path, files))
        print(f"## {suite}: {total_caught}/{len(positives)} documented positives caught; "
              f"{caught}/{len(in_scope)} of those in the rule's scope; {fp}/{len(negatives)} negatives flagged")

main()
