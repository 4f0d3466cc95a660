//! True- and false-positive vectors for every rule, as templates.
//!
//! Vectors are synthetic: `{c:N}` expands to N random characters of class `c` from a PRNG
//! seeded by the template itself, so the strings look random, are the same on every run, and
//! no real credential is stored here. Classes: `A` alphanumeric, `a` lower alphanumeric,
//! `U` upper alphanumeric, `l` letters, `h` lower hex, `H` upper hex, `d` digits,
//! `b` base64 (`A-Za-z0-9+/`), `w` `A-Za-z0-9_-`, `2` base32 (`A-Z2-7`), `B` bech32, `x` the letter x;
//! `{uuid}` is a random lower-case UUID. A true-positive line must produce a hit from its
//! rule; a false-positive line must produce no hit at all.

pub(crate) struct Vector {
    pub rule: &'static str,
    pub tp: &'static [&'static str],
    pub fp: &'static [&'static str],
}

const fn v(rule: &'static str, tp: &'static [&'static str], fp: &'static [&'static str]) -> Vector {
    Vector { rule, tp, fp }
}

pub(crate) static VECTORS: &[Vector] = &[
    v(
        "aws-access-key-id",
        &[
            "aws_access_key_id = AKIA{2:16}",
            "export AWS_ACCESS_KEY_ID=\"ASIA{2:16}\"",
            "\"AccessKeyId\": \"AKIA{2:16}\",",
        ],
        &[
            "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
            "key = AKIAXXXXXXXXXXXXXXXX",
            "TODAYINASIAASACKOFRICEFELLOVER",
            "id = AKIA{2:15}",
        ],
    ),
    v(
        "aws-secret-access-key",
        &[
            "aws_secret_access_key = {b:40}",
            "AWS_SECRET_ACCESS_KEY: \"{b:40}\"",
        ],
        &[
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}",
        ],
    ),
    v(
        "aws-session-token",
        &["aws_session_token = {b:180}"],
        &[
            "aws_session_token = $AWS_SESSION_TOKEN",
            "aws_session_token: {x:160}",
        ],
    ),
    v(
        "aws-bedrock-api-key",
        &["BEDROCK_KEY=ABSK{b:140}"],
        &["ABSK{x:120}", "prefix = \"ABSK\""],
    ),
    v(
        "gcp-api-key",
        &[
            "const firebaseConfig = {{ apiKey: \"AIza{w:35}\" }};",
            "GOOGLE_API_KEY=AIza{w:35}",
        ],
        &[
            "apiKey: \"AIzaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"",
            "AIzaSyabcdefghijklmnopqrstuvwxyz1234567",
            "key: AIza{w:30}",
        ],
    ),
    v(
        "gcp-oauth-client-secret",
        &["\"client_secret\": \"GOCSPX-{w:28}\""],
        &["client_secret: GOCSPX-xxxxxxxxxxxxxxxxxxxxxxxxxxxx"],
    ),
    v(
        "gcp-oauth-access-token",
        &["Authorization: Bearer ya29.{w:120}"],
        &["token = ya29.short"],
    ),
    v(
        "gcp-service-account",
        &["  \"type\": \"service_account\","],
        &[
            "  \"type\": \"authorized_user\",",
            "# service_account must be configured",
        ],
    ),
    v(
        "azure-storage-account-key",
        &[
            "DefaultEndpointsProtocol=https;AccountName=acct{a:6};AccountKey={b:86}==;EndpointSuffix=core.windows.net",
        ],
        &[
            "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;",
            "AccountKey=<storage-account-key>",
        ],
    ),
    v(
        "azure-shared-access-key",
        &[
            "Endpoint=sb://ns{a:5}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={b:43}=",
        ],
        &[
            "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${SB_KEY}",
        ],
    ),
    v(
        "azure-sas-token",
        &[
            "https://acct.blob.core.windows.net/c?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2030-01-01&sig={A:43}%3D",
        ],
        &["https://acct.blob.core.windows.net/c?sv=2022-11-02&sig=<signature>"],
    ),
    v(
        "azure-ad-client-secret",
        &[
            "client_secret=\"{w:3}8Q~{A:34}\"",
            "AZURE_CLIENT_SECRET={A:3}7Q~{A:31}",
        ],
        &[
            "client_secret=bP88Q~xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~",
        ],
    ),
    v(
        "alibaba-access-key-id",
        &["access_key_id: LTAI{A:20}"],
        &["access_key_id: LTAI{x:20}"],
    ),
    v(
        "alibaba-secret-key",
        &["alibaba_secret = \"{A:30}\""],
        &["alibaba_secret = \"{x:30}\""],
    ),
    v(
        "digitalocean-pat",
        &["DIGITALOCEAN_TOKEN=dop_v1_{h:64}"],
        &["DIGITALOCEAN_TOKEN=dop_v1_{x:64}"],
    ),
    v(
        "digitalocean-access-token",
        &["token: doo_v1_{h:64}"],
        &["token: doo_v1_<token>"],
    ),
    v(
        "digitalocean-refresh-token",
        &["refresh = \"dor_v1_{h:64}\""],
        &["refresh = \"dor_v1_0000000000000000000000000000000000000000000000000000000000000000\""],
    ),
    v(
        "heroku-api-key",
        &["HEROKU_API_KEY={uuid}"],
        &[
            "HEROKU_APP_NAME=my-heroku-app",
            "heroku_api_key = xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
        ],
    ),
    v(
        "heroku-api-key-v2",
        &["key = HRKU-AA{w:58}"],
        &["key = HRKU-AA{x:58}"],
    ),
    v(
        "cloudflare-origin-ca-key",
        &["CF_ORIGIN_CA_KEY=v1.0-{h:24}-{h:146}"],
        &["version = v1.0-beta"],
    ),
    v(
        "cloudflare-api-key",
        &[
            "CLOUDFLARE_API_TOKEN={w:40}",
            "cloudflare_global_api_key = \"{h:37}\"",
        ],
        &[
            "CLOUDFLARE_API_TOKEN=${{ secrets.CLOUDFLARE_API_TOKEN }}",
            "cloudflare_zone_name = example.com",
        ],
    ),
    v(
        "flyio-access-token",
        &["FLY_API_TOKEN=fo1_{w:43}", "token: fm2_{b:120}"],
        &["FLY_API_TOKEN=fo1_{x:43}"],
    ),
    v(
        "yandex-api-key",
        &["yc_key = \"AQVN{w:36}\""],
        &["yc_key = \"AQVN{x:36}\""],
    ),
    v(
        "yandex-access-token",
        &["iam: t1.{w:20}.{w:86}"],
        &["t1.small.thing"],
    ),
    v(
        "yandex-aws-access-token",
        &["yandex_access_key = \"YC{w:38}\""],
        &["yandex_access_key = \"YC{x:38}\""],
    ),
    v(
        "scalingo-api-token",
        &["SCALINGO_TOKEN=tk-us-{w:48}"],
        &["SCALINGO_TOKEN=tk-us-{x:48}"],
    ),
    v(
        "vault-service-token",
        &["VAULT_TOKEN=hvs.{w:95}"],
        &["VAULT_TOKEN=hvs.{x:95}", "VAULT_TOKEN=${VAULT_TOKEN}"],
    ),
    v(
        "vault-batch-token",
        &["token = \"hvb.{w:150}\""],
        &["token = \"hvb.{x:150}\""],
    ),
    v(
        "terraform-cloud-api-token",
        &["token = \"{a:14}.atlasv1.{w:65}\""],
        &[
            "token = \"xxxxxxxxxxxxxx.atlasv1.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"",
        ],
    ),
    v(
        "pulumi-api-token",
        &["PULUMI_ACCESS_TOKEN=pul-{h:40}"],
        &["PULUMI_ACCESS_TOKEN=pul-{x:40}"],
    ),
    v(
        "openshift-user-token",
        &["oc login --token=sha256~{w:43}"],
        &["oc login --token=sha256~{x:43}"],
    ),
    v(
        "github-pat",
        &[
            "GITHUB_TOKEN=ghp_{A:36}",
            "token := \"ghp_{A:36}\"",
            "git clone https://ghp_{A:36}@github.com/org/repo",
        ],
        &[
            "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "token: ${{ secrets.GITHUB_TOKEN }}",
            "ghp_{A:35}",
            "prefix = \"ghp_\"",
        ],
    ),
    v(
        "github-oauth",
        &["oauth_token: gho_{A:36}"],
        &["oauth_token: gho_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"],
    ),
    v(
        "github-user-to-server-token",
        &["token = 'ghu_{A:36}'"],
        &["token = 'ghu_<redacted>'"],
    ),
    v(
        "github-server-to-server-token",
        &["git remote set-url origin https://x-access-token:ghs_{A:36}@github.com/o/r.git"],
        &["echo ghs_$TOKEN"],
    ),
    v(
        "github-refresh-token",
        &["refresh_token=ghr_{A:76}"],
        &["refresh_token=ghr_{x:76}"],
    ),
    v(
        "github-fine-grained-pat",
        &["GH_TOKEN=github_pat_{A:22}_{A:59}"],
        &["GH_TOKEN=github_pat_{x:82}"],
    ),
    v(
        "gitlab-pat",
        &["GITLAB_TOKEN=glpat-{w:20}", "token: glpat-{w:27}.01.{a:7}"],
        &[
            "GITLAB_TOKEN=glpat-xxxxxxxxxxxxxxxxxxxx",
            "if token.startswith(\"glpat-\"):",
        ],
    ),
    v(
        "gitlab-pipeline-trigger-token",
        &["TRIGGER=glptt-{h:40}"],
        &["TRIGGER=glptt-{x:40}"],
    ),
    v(
        "gitlab-runner-registration-token",
        &["registration-token: GR1348941{w:20}"],
        &["registration-token: GR1348941{x:20}"],
    ),
    v(
        "gitlab-runner-token",
        &[
            "token = \"glrt-{w:20}\"",
            "token = \"glrt-t1_{w:27}.01.{a:7}\"",
        ],
        &["token = \"glrt-{x:20}\""],
    ),
    v(
        "gitlab-deploy-token",
        &["password: gldt-{w:20}"],
        &["password: gldt-{x:20}"],
    ),
    v(
        "gitlab-cicd-job-token",
        &["CI_JOB_TOKEN=glcbt-{a:3}_{w:20}"],
        &["CI_JOB_TOKEN=glcbt-64_{x:20}"],
    ),
    v(
        "gitlab-feature-flag-token",
        &["unleash_token: glffct-{w:20}"],
        &["unleash_token: glffct-{x:20}"],
    ),
    v(
        "gitlab-feed-token",
        &["feed=glft-{w:20}"],
        &["feed=glft-{x:20}"],
    ),
    v(
        "gitlab-incoming-mail-token",
        &["mail: glimt-{w:25}"],
        &["mail: glimt-{x:25}"],
    ),
    v(
        "gitlab-agent-token",
        &["agent_token: glagent-{w:50}"],
        &["agent_token: glagent-{x:50}"],
    ),
    v(
        "gitlab-oauth-app-secret",
        &["secret: gloas-{w:64}"],
        &["secret: gloas-{x:64}"],
    ),
    v(
        "gitlab-scim-token",
        &["scim = \"glsoat-{w:20}\""],
        &["scim = \"glsoat-{x:20}\""],
    ),
    v(
        "gitlab-session-cookie",
        &["Cookie: _gitlab_session={a:32}"],
        &["Cookie: _gitlab_session=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"],
    ),
    v(
        "bitbucket-app-password",
        &["BITBUCKET_APP_PASSWORD=ATBB{A:32}"],
        &["BITBUCKET_APP_PASSWORD=ATBB{x:32}"],
    ),
    v(
        "bitbucket-client-secret",
        &["bitbucket_client_secret: {w:64}"],
        &["bitbucket_client_secret: {x:64}"],
    ),
    v(
        "atlassian-api-token",
        &["JIRA_TOKEN=ATATT3{w:186}"],
        &["JIRA_TOKEN=ATATT3{x:186}"],
    ),
    v(
        "atlassian-api-token-legacy",
        &["jira_api_token = \"{A:24}\""],
        &["jira_api_token = \"{x:24}\"", "jira_project_key = PROJ"],
    ),
    v(
        "docker-hub-pat",
        &["echo dckr_pat_{w:27} | docker login -u me --password-stdin"],
        &["DOCKER_TOKEN=dckr_pat_{x:27}"],
    ),
    v(
        "npm-access-token",
        &["//registry.npmjs.org/:_authToken=npm_{A:36}"],
        &[
            "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
            "//registry.npmjs.org/:_authToken=npm_{x:36}",
        ],
    ),
    v(
        "pypi-upload-token",
        &["password = pypi-AgEIcHlwaS5vcmc{w:70}"],
        &["password = pypi-AgEIcHlwaS5vcmc{x:70}"],
    ),
    v(
        "rubygems-api-token",
        &[":rubygems_api_key: rubygems_{h:48}"],
        &[":rubygems_api_key: rubygems_{x:48}"],
    ),
    v(
        "clojars-api-token",
        &["CLOJARS_{a:60}"],
        &["CLOJARS_{x:60}"],
    ),
    v(
        "artifactory-api-key",
        &["X-JFrog-Art-Api: AKCp{A:69}"],
        &["X-JFrog-Art-Api: AKCp{x:69}"],
    ),
    v(
        "artifactory-reference-token",
        &["token=cmVmd{A:59}"],
        &["token=cmVmd{x:59}"],
    ),
    v(
        "jfrog-api-key",
        &["JFROG_API_KEY = \"{A:73}\""],
        &["JFROG_API_KEY = \"{x:73}\""],
    ),
    v(
        "databricks-api-token",
        &["DATABRICKS_TOKEN=dapi{h:32}"],
        &["DATABRICKS_TOKEN=dapi{x:32}"],
    ),
    v(
        "sonar-token",
        &["SONAR_TOKEN=squ_{h:40}"],
        &["SONAR_TOKEN=squ_{x:40}"],
    ),
    v(
        "sonar-token-legacy",
        &["sonar.login={a:40}"],
        &["sonar.login=${SONAR_TOKEN}"],
    ),
    v(
        "snyk-api-token",
        &["SNYK_TOKEN={uuid}"],
        &["SNYK_TOKEN=${SNYK_TOKEN}"],
    ),
    v(
        "travisci-access-token",
        &["travis_token: {A:22}"],
        &["travis_token: {x:22}"],
    ),
    v(
        "droneci-access-token",
        &["DRONECI_TOKEN={A:32}"],
        &["DRONECI_TOKEN={x:32}"],
    ),
    v(
        "codecov-access-token",
        &["CODECOV_TOKEN={a:32}"],
        &["CODECOV_TOKEN: ${{ secrets.CODECOV_TOKEN }}"],
    ),
    v(
        "harness-api-key",
        &["x-api-key: pat.{w:22}.{A:24}.{A:20}"],
        &["pat.{x:22}.{x:24}.{x:20}"],
    ),
    v(
        "octopus-deploy-api-key",
        &["OCTOPUS_API_KEY=API-{U:26}"],
        &[
            "OCTOPUS_API_KEY=API-{x:26}",
            "see API-REFERENCE for details",
        ],
    ),
    v(
        "sourcegraph-access-token",
        &["SRC_ACCESS_TOKEN=sgp_{h:16}_{h:40}"],
        &["SRC_ACCESS_TOKEN=sgp_{x:40}"],
    ),
    v(
        "sourcegraph-access-token-legacy",
        &["sourcegraph: {H:20}{h:20}"],
        &["sourcegraph: {x:40}"],
    ),
    v(
        "aws-bedrock-api-key-short-lived",
        &["AWS_BEARER_TOKEN_BEDROCK=bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t{b:80}"],
        &[
            "key_prefix = \"bedrock-api-key-\"",
            // The bare constant prefix, e.g. inside this scanner's own pattern source.
            "r\"(?P<s>bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9]*)\"",
        ],
    ),
    v(
        "prefect-api-token",
        &["PREFECT_API_KEY=pnu_{A:36}"],
        &["PREFECT_API_KEY=pnu_{x:36}"],
    ),
    v(
        "readme-api-token",
        &["README_API_KEY=rdme_{a:70}"],
        &["README_API_KEY=rdme_{x:70}"],
    ),
    v(
        "infracost-api-token",
        &["INFRACOST_API_KEY=ico-{A:32}"],
        &["INFRACOST_API_KEY=ico-{x:32}"],
    ),
    v(
        "supabase-access-token",
        &["SUPABASE_ACCESS_TOKEN=sbp_{h:40}"],
        &["SUPABASE_ACCESS_TOKEN=sbp_{x:40}"],
    ),
    v(
        "netlify-pat",
        &["NETLIFY_AUTH_TOKEN=nfp_{A:36}"],
        &["NETLIFY_AUTH_TOKEN=nfp_{x:36}"],
    ),
    v(
        "netlify-access-token",
        &["netlify_token = \"{w:43}\""],
        &["netlify_token = \"{x:43}\""],
    ),
    v(
        "figma-pat",
        &["FIGMA_TOKEN=figd_{w:40}"],
        &["FIGMA_TOKEN=figd_{x:40}"],
    ),
    v(
        "linear-api-key",
        &["LINEAR_API_KEY=lin_api_{A:40}"],
        &["LINEAR_API_KEY=lin_api_{x:40}"],
    ),
    v(
        "linear-client-secret",
        &["linear_client_secret = \"{h:32}\""],
        &["linear_client_secret = \"{x:32}\""],
    ),
    v(
        "doppler-api-token",
        &["DOPPLER_TOKEN=dp.pt.{A:43}"],
        &["DOPPLER_TOKEN=dp.pt.{x:43}"],
    ),
    v(
        "dynatrace-api-token",
        &["DT_API_TOKEN=dt0c01.{U:24}.{A:64}"],
        &["DT_API_TOKEN=dt0c01.{x:24}.{x:64}"],
    ),
    v(
        "grafana-api-key",
        &["GRAFANA_API_KEY=eyJrIjoi{A:80}"],
        &["GRAFANA_API_KEY=eyJrIjoi{x:80}"],
    ),
    v(
        "grafana-cloud-api-token",
        &["GRAFANA_CLOUD_TOKEN=glc_{b:60}"],
        &["GRAFANA_CLOUD_TOKEN=glc_{x:60}"],
    ),
    v(
        "grafana-service-account-token",
        &["GRAFANA_TOKEN=glsa_{A:32}_{h:8}"],
        &["GRAFANA_TOKEN=glsa_{x:32}_xxxxxxxx"],
    ),
    v(
        "sentry-user-token",
        &["SENTRY_AUTH_TOKEN=sntryu_{h:64}"],
        &["SENTRY_AUTH_TOKEN=sntryu_{x:64}"],
    ),
    v(
        "sentry-org-token",
        &["SENTRY_AUTH_TOKEN=sntrys_eyJpYXQiO{b:50}LCJyZWdpb25fdXJs{b:50}_{b:43}"],
        &["SENTRY_AUTH_TOKEN=sntrys_eyJpYXQiO{x:100}_{x:43}"],
    ),
    v(
        "sentry-access-token",
        &["sentry_token: {h:64}"],
        &["sentry_token: {x:64}", "sentry_dsn_name: backend"],
    ),
    v(
        "new-relic-user-api-key",
        &["NEW_RELIC_API_KEY=NRAK-{U:27}"],
        &["NEW_RELIC_API_KEY=NRAK-{x:27}"],
    ),
    v(
        "new-relic-insert-key",
        &["insert_key: NRII-{A:32}"],
        &["insert_key: NRII-{x:32}"],
    ),
    v(
        "new-relic-browser-api-token",
        &["browser: NRJS-{h:19}"],
        &["browser: NRJS-{x:19}"],
    ),
    v(
        "new-relic-user-api-id",
        &["new_relic_user_api_id = \"{A:64}\""],
        &["new_relic_user_api_id = \"{x:64}\""],
    ),
    v(
        "datadog-api-key",
        &["DD_API_KEY={h:32}", "datadog_app_key: {A:40}"],
        &[
            "DD_API_KEY=<your-datadog-api-key>",
            "DD_API_KEY=${DD_API_KEY}",
        ],
    ),
    v(
        "openai-api-key",
        &[
            "OPENAI_API_KEY=sk-proj-{w:74}T3BlbkFJ{w:74}",
            "openai.api_key = \"sk-{A:20}T3BlbkFJ{A:20}\"",
        ],
        &[
            "OPENAI_API_KEY=sk-proj-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "OPENAI_API_KEY=sk-...",
        ],
    ),
    v(
        "anthropic-api-key",
        &["ANTHROPIC_API_KEY=sk-ant-api03-{w:93}AA"],
        &[
            "ANTHROPIC_API_KEY=sk-ant-api03-{x:93}AA",
            "ANTHROPIC_API_KEY=sk-ant-...",
        ],
    ),
    v(
        "anthropic-admin-api-key",
        &["key = \"sk-ant-admin01-{w:93}AA\""],
        &["key = \"sk-ant-admin01-{x:93}AA\""],
    ),
    v(
        "huggingface-access-token",
        &["HF_TOKEN=hf_{l:34}", "token = \"hf_{l:34}\""],
        &[
            "os.environ.get(\"HF_AUTH_TOKEN\", \"hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"),",
            "- (id)hf_requiredCharacteristicTypesForDisplayMetadata;",
        ],
    ),
    v(
        "huggingface-org-token",
        &["HF_ORG_TOKEN=api_org_{l:34}"],
        &["HF_ORG_TOKEN=api_org_{x:34}"],
    ),
    v(
        "perplexity-api-key",
        &["PPLX_API_KEY=pplx-{A:48}"],
        &["PPLX_API_KEY=pplx-{x:48}"],
    ),
    v(
        "groq-api-key",
        &["GROQ_API_KEY=gsk_{A:52}"],
        &["GROQ_API_KEY=gsk_{x:52}"],
    ),
    v(
        "xai-api-key",
        &["XAI_API_KEY=xai-{A:80}"],
        &["XAI_API_KEY=xai-{x:80}"],
    ),
    v(
        "cohere-api-token",
        &["COHERE_API_KEY={A:40}"],
        &["COHERE_API_KEY={x:40}"],
    ),
    v(
        "privateai-api-token",
        &["private_ai_key = \"{a:32}\""],
        &["private_ai_key = \"{x:32}\""],
    ),
    v(
        "slack-bot-token",
        &["SLACK_BOT_TOKEN=xoxb-{d:12}-{d:13}-{A:24}"],
        &[
            "SLACK_BOT_TOKEN=xoxb-your-token-here",
            "SLACK_BOT_TOKEN=xoxb-{x:30}",
        ],
    ),
    v(
        "slack-user-token",
        &["token: xoxp-{d:12}-{d:12}-{d:13}-{h:32}"],
        &["token: xoxp-xxxxxxxxxxxx-xxxxxxxxxxxx"],
    ),
    v(
        "slack-app-token",
        &["SLACK_APP_TOKEN=xapp-1-A{U:10}-{d:13}-{h:64}"],
        &["SLACK_APP_TOKEN=xapp-1-xxx"],
    ),
    v(
        "slack-config-access-token",
        &["cfg = xoxe.xoxp-1-{U:164}"],
        &["cfg = xoxe.xoxp-1-{x:164}"],
    ),
    v(
        "slack-config-refresh-token",
        &["refresh = xoxe-1-{U:146}"],
        &["refresh = xoxe-1-{x:146}"],
    ),
    v(
        "slack-legacy-token",
        &[
            "token = xoxs-{d:10}-{d:11}-{d:12}-{h:64}",
            "token = xoxa-2-{A:40}",
        ],
        &["token = xoxa-2-{x:40}"],
    ),
    v(
        "slack-webhook-url",
        &["SLACK_WEBHOOK=https://hooks.slack.com/services/T{U:8}/B{U:10}/{A:24}{A:20}"],
        &[
            "SLACK_WEBHOOK=https://hooks.slack.com/services/XXXXXXXXX/XXXXXXXXXXX/XXXXXXXXXXXXXXXXXXXXXXXX",
        ],
    ),
    v(
        "discord-webhook-url",
        &["url = \"https://discord.com/api/webhooks/{d:19}/{w:68}\""],
        &["url = \"https://discord.com/api/webhooks/{d:19}/{x:68}\""],
    ),
    v(
        "discord-api-token",
        &[
            "DISCORD_CLIENT_SECRET={w:32}",
            "discord_bot_token = \"M{A:25}.{w:6}.{w:38}\"",
        ],
        &["DISCORD_CLIENT_SECRET={x:32}"],
    ),
    v(
        "microsoft-teams-webhook",
        &[
            "https://contoso.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/{a:32}/{uuid}",
        ],
        &[
            "https://contoso.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/{x:32}/{uuid}",
        ],
    ),
    v(
        "telegram-bot-token",
        &["bot = Bot(\"{d:10}:AA{w:33}\")"],
        &["bot = Bot(\"{d:10}:AA{x:33}\")"],
    ),
    v(
        "telegram-bot-token-assigned",
        &["telegram_api_token = \"{d:9}:A{a:34}\""],
        &[
            "telegram_api_token = \"1691:Ayl1cmp5m75k7cb5g_14j8f854onkuyt3na\"",
            "telegram_api_token = \"{d:9}:A{x:34}\"",
        ],
    ),
    v(
        "twilio-api-key",
        &["TWILIO_API_KEY=SK{h:32}"],
        &[
            "TWILIO_API_KEY=SK{x:32}",
            "TASK_00000000000000000000000000000000",
        ],
    ),
    v(
        "twilio-auth-token",
        &["TWILIO_AUTH_TOKEN={h:32}"],
        &["TWILIO_AUTH_TOKEN=your_auth_token"],
    ),
    v(
        "sendgrid-api-key",
        &["SENDGRID_API_KEY=SG.{w:22}.{w:43}"],
        &["SENDGRID_API_KEY=SG.{x:22}.{x:43}"],
    ),
    v(
        "sendinblue-api-key",
        &["BREVO_KEY=xkeysib-{h:64}-{A:16}"],
        &["BREVO_KEY=xkeysib-{x:64}-{x:16}"],
    ),
    v(
        "mailgun-api-key",
        &[
            "MAILGUN_API_KEY=key-{h:32}",
            "mailgun_signing_key: {h:32}-{h:8}-{h:8}",
        ],
        &["MAILGUN_API_KEY=key-{x:32}"],
    ),
    v(
        "mailchimp-api-key",
        &["MAILCHIMP_API_KEY={h:32}-us12"],
        &["MAILCHIMP_API_KEY={x:32}-us12"],
    ),
    v(
        "postmark-server-token",
        &["POSTMARK_SERVER_TOKEN={uuid}"],
        &["POSTMARK_SERVER_TOKEN=${POSTMARK_TOKEN}"],
    ),
    v(
        "messagebird-api-token",
        &["MESSAGEBIRD_API_KEY={A:25}"],
        &["MESSAGEBIRD_API_KEY={x:25}"],
    ),
    v(
        "mattermost-access-token",
        &["mattermost_token: {a:26}"],
        &["mattermost_token: {x:26}"],
    ),
    v(
        "gitter-access-token",
        &["GITTER_TOKEN={w:40}"],
        &["GITTER_TOKEN={x:40}"],
    ),
    v(
        "sendbird-access-token",
        &["sendbird_api_token = \"{h:40}\""],
        &["sendbird_api_token = \"{x:40}\""],
    ),
    v(
        "intercom-api-key",
        &["INTERCOM_ACCESS_TOKEN={w:60}"],
        &["INTERCOM_ACCESS_TOKEN={x:60}"],
    ),
    v(
        "notion-api-token",
        &["NOTION_TOKEN=ntn_{d:11}{A:35}", "NOTION_KEY=secret_{A:43}"],
        &["NOTION_TOKEN=ntn_{x:46}", "NOTION_KEY=secret_{x:43}"],
    ),
    v(
        "zendesk-secret-key",
        &["ZENDESK_API_TOKEN={A:40}"],
        &["ZENDESK_API_TOKEN={x:40}"],
    ),
    v(
        "asana-secret",
        &["ASANA_CLIENT_SECRET={A:32}", "asana_TOKEN :::= \"{d:16}\""],
        &["ASANA_CLIENT_SECRET={x:32}"],
    ),
    v(
        "typeform-api-token",
        &["TYPEFORM_TOKEN=tfp_{w:59}"],
        &["TYPEFORM_TOKEN=tfp_{x:59}"],
    ),
    v(
        "twitter-api-secret",
        &[
            "TWITTER_API_SECRET={A:50}",
            "twitter_bearer_token = \"AAAAAAAAAAAAAAAAAAAAAA{A:90}\"",
        ],
        &["TWITTER_API_SECRET={x:50}"],
    ),
    v(
        "facebook-page-access-token",
        &["FB_PAGE_TOKEN=EAAC{A:120}"],
        &["FB_PAGE_TOKEN=EAAC{x:120}"],
    ),
    v(
        "facebook-secret",
        &["FACEBOOK_APP_SECRET={h:32}"],
        &["FACEBOOK_APP_SECRET={x:32}"],
    ),
    v(
        "facebook-app-access-token",
        &[
            "facebook_token = \"{d:15}|{w:30}\"",
            "facebook {d:16}|{w:27}",
        ],
        &["facebook_token = \"{d:15}|{x:30}\""],
    ),
    v(
        "linkedin-client-secret",
        &["LINKEDIN_CLIENT_SECRET={A:16}"],
        &["LINKEDIN_CLIENT_SECRET={x:16}"],
    ),
    v(
        "twitch-api-token",
        &["twitch_token = \"{a:30}\""],
        &["twitch_token = \"{x:30}\""],
    ),
    v(
        "flickr-access-token",
        &["FLICKR_KEY={a:32}"],
        &["FLICKR_KEY={x:32}"],
    ),
    v(
        "dropbox-api-token",
        &["DROPBOX_TOKEN=sl.{w:140}"],
        &["DROPBOX_TOKEN=sl.{x:140}"],
    ),
    v(
        "mapbox-secret-token",
        &["MAPBOX_TOKEN=sk.eyJ{w:60}.{w:22}"],
        &["MAPBOX_TOKEN=sk.eyJ{x:60}.{x:22}"],
    ),
    v(
        "nytimes-access-token",
        &["NYTIMES_API_KEY={w:32}"],
        &["NYTIMES_API_KEY={x:32}"],
    ),
    v(
        "stripe-secret-key",
        &[
            "STRIPE_SECRET_KEY=sk_live_{A:24}",
            "stripe.api_key = \"rk_live_{A:99}\"",
        ],
        &[
            "STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
            "stripe.api_key = \"sk_test_{A:24}\"",
            "nonMatchingToken := \"task_test_qdc053rhv0rkct9zu4nrunwpypdjif\"",
        ],
    ),
    v(
        "stripe-webhook-secret",
        &["STRIPE_WEBHOOK_SECRET=whsec_{A:32}"],
        &["STRIPE_WEBHOOK_SECRET=whsec_..."],
    ),
    v(
        "square-access-token",
        &["SQUARE_ACCESS_TOKEN=EAAA{w:60}"],
        &["SQUARE_ACCESS_TOKEN=EAAA{x:60}"],
    ),
    v(
        "square-secret",
        &["SQUARE_SECRET=sq0csp-{w:43}"],
        &["SQUARE_SECRET=sq0csp-{x:43}"],
    ),
    v(
        "shopify-access-token",
        &["SHOPIFY_TOKEN=shpat_{h:32}"],
        &["SHOPIFY_TOKEN=shpat_{x:32}"],
    ),
    v(
        "shopify-custom-access-token",
        &["SHOPIFY_TOKEN=shpca_{h:32}"],
        &["SHOPIFY_TOKEN=shpca_{x:32}"],
    ),
    v(
        "shopify-private-app-token",
        &["SHOPIFY_TOKEN=shppa_{h:32}"],
        &["SHOPIFY_TOKEN=shppa_{x:32}"],
    ),
    v(
        "shopify-shared-secret",
        &["SHOPIFY_SECRET=shpss_{h:32}"],
        &["SHOPIFY_SECRET=shpss_{x:32}"],
    ),
    v(
        "paypal-braintree-access-token",
        &["BT=access_token$production${a:16}${h:32}"],
        &["BT=access_token$production${x:16}${x:32}"],
    ),
    v(
        "shippo-api-token",
        &["SHIPPO_TOKEN=shippo_live_{h:40}"],
        &["SHIPPO_TOKEN=shippo_live_{x:40}"],
    ),
    v(
        "easypost-api-token",
        &["EASYPOST_API_KEY=EZAK{A:54}"],
        &["EASYPOST_API_KEY=EZAK{x:54}"],
    ),
    v(
        "duffel-api-token",
        &["DUFFEL_TOKEN=duffel_live_{w:43}"],
        &["DUFFEL_TOKEN=duffel_live_{x:43}"],
    ),
    v(
        "flutterwave-secret-key",
        &[
            "FLW_SECRET_KEY=FLWSECK_TEST-{h:32}-X",
            "FLW_ENCRYPTION_KEY=FLWSECK_TEST-{h:12}",
        ],
        &["FLW_SECRET_KEY=FLWSECK_TEST-{x:32}-X"],
    ),
    v(
        "plaid-access-token",
        &["plaid_token = \"access-sandbox-{uuid}\""],
        &["plaid_token = \"access-sandbox-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx\""],
    ),
    v(
        "plaid-secret",
        &["PLAID_SECRET={a:30}"],
        &["PLAID_SECRET={x:30}"],
    ),
    v(
        "coinbase-access-token",
        &["COINBASE_TOKEN={w:64}"],
        &["COINBASE_TOKEN={x:64}"],
    ),
    v(
        "kraken-access-token",
        &["KRAKEN_SECRET={b:88}"],
        &["KRAKEN_SECRET={x:88}"],
    ),
    v(
        "kucoin-secret",
        &["KUCOIN_SECRET={uuid}", "kucoin_key = \"{h:24}\""],
        &["KUCOIN_SECRET={x:36}"],
    ),
    v(
        "bittrex-secret",
        &["BITTREX_SECRET={A:32}"],
        &["BITTREX_SECRET={x:32}"],
    ),
    v(
        "gocardless-api-token",
        &["GOCARDLESS_TOKEN=live_{w:40}"],
        &["GOCARDLESS_TOKEN=live_{x:40}"],
    ),
    v(
        "finicity-secret",
        &["FINICITY_SECRET={A:20}"],
        &["FINICITY_SECRET={x:20}"],
    ),
    v(
        "freshbooks-access-token",
        &["FRESHBOOKS_TOKEN={A:64}"],
        &["FRESHBOOKS_TOKEN={x:64}"],
    ),
    v(
        "lob-api-key",
        &["LOB_API_KEY=live_{h:35}"],
        &["LOB_API_KEY=live_{x:35}"],
    ),
    v(
        "postman-api-token",
        &["POSTMAN_API_KEY=PMAK-{h:24}-{h:34}"],
        &["POSTMAN_API_KEY=PMAK-{x:24}-{x:34}"],
    ),
    v(
        "planetscale-token",
        &["PLANETSCALE_PASSWORD=pscale_pw_{w:43}"],
        &["PLANETSCALE_PASSWORD=pscale_pw_{x:43}"],
    ),
    v(
        "age-secret-key",
        &["AGE-SECRET-KEY-1{B:58}"],
        &["AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ"],
    ),
    v(
        "onepassword-service-account-token",
        &["OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ{b:300}"],
        &["OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ{x:300}"],
    ),
    v(
        "onepassword-secret-key",
        &["secret_key: A3-{U:6}-{U:11}-{U:5}-{U:5}-{U:5}"],
        &["secret_key: A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX"],
    ),
    v(
        "adobe-client-secret",
        &["ADOBE_CLIENT_SECRET=p8e-{A:32}"],
        &["ADOBE_CLIENT_SECRET=p8e-{x:32}"],
    ),
    v(
        "adobe-client-id",
        &["adobe_client_id = \"{h:32}\""],
        &["adobe_client_id = \"{x:32}\""],
    ),
    v(
        "adafruit-api-key",
        &["ADAFRUIT_IO_KEY={w:32}"],
        &["ADAFRUIT_IO_KEY={x:32}"],
    ),
    v(
        "airtable-api-key",
        &["AIRTABLE_API_KEY={A:17}"],
        &["AIRTABLE_API_KEY={x:17}"],
    ),
    v(
        "airtable-pat",
        &["AIRTABLE_TOKEN=pat{A:14}.{h:64}"],
        &["AIRTABLE_TOKEN=pat{x:14}.{x:64}"],
    ),
    v(
        "algolia-api-key",
        &["ALGOLIA_ADMIN_KEY={A:32}"],
        &["ALGOLIA_ADMIN_KEY={x:32}"],
    ),
    v(
        "clickhouse-cloud-api-secret",
        &["CLICKHOUSE_SECRET=4b1d{A:38}"],
        &["CLICKHOUSE_SECRET=4b1d{x:38}"],
    ),
    v(
        "confluent-secret-key",
        &["CONFLUENT_SECRET={A:64}"],
        &["CONFLUENT_SECRET={x:64}"],
    ),
    v(
        "contentful-delivery-api-token",
        &["CONTENTFUL_ACCESS_TOKEN={w:43}"],
        &["CONTENTFUL_ACCESS_TOKEN={x:43}"],
    ),
    v(
        "fastly-api-token",
        &["FASTLY_API_TOKEN={w:32}"],
        &["FASTLY_API_TOKEN={x:32}"],
    ),
    v(
        "launchdarkly-access-token",
        &["LAUNCHDARKLY_ACCESS_TOKEN={w:40}"],
        &["LAUNCHDARKLY_ACCESS_TOKEN={x:40}"],
    ),
    v(
        "looker-client-secret",
        &["LOOKER_CLIENT_SECRET={A:24}"],
        &["LOOKER_CLIENT_SECRET={x:24}"],
    ),
    v(
        "okta-access-token",
        &["OKTA_API_TOKEN=00{w:40}"],
        &["OKTA_API_TOKEN=00{x:40}"],
    ),
    v(
        "rapidapi-access-token",
        &["X-RapidAPI-Key: {w:50}"],
        &["X-RapidAPI-Key: {x:50}"],
    ),
    v(
        "squarespace-access-token",
        &["SQUARESPACE_API_KEY={uuid}"],
        &["SQUARESPACE_API_KEY=${KEY}"],
    ),
    v(
        "hubspot-api-key",
        &["HUBSPOT_API_KEY={uuid}"],
        &["HUBSPOT_API_KEY=xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"],
    ),
    v(
        "hubspot-private-app-token",
        &["HUBSPOT_TOKEN=pat-na1-{uuid}"],
        &["HUBSPOT_TOKEN=pat-na1-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"],
    ),
    v(
        "sumologic-access-token",
        &["SUMO_ACCESS_KEY={A:64}"],
        &["SUMO_ACCESS_KEY={x:64}"],
    ),
    v(
        "finnhub-access-token",
        &["FINNHUB_TOKEN={A:20}"],
        &["FINNHUB_TOKEN={x:20}"],
    ),
    v(
        "etsy-access-token",
        &["ETSY_API_KEY={A:24}"],
        &["ETSY_API_KEY={x:24}"],
    ),
    v(
        "beamer-api-token",
        &["BEAMER_TOKEN=b_{w:44}"],
        &["BEAMER_TOKEN=b_{x:44}"],
    ),
    v(
        "defined-networking-api-token",
        &["DNKEY=dnkey-{w:26}-{w:52}"],
        &["DNKEY=dnkey-{x:26}-{x:52}"],
    ),
    v(
        "frameio-api-token",
        &["FRAMEIO_TOKEN=fio-u-{w:64}"],
        &["FRAMEIO_TOKEN=fio-u-{x:64}"],
    ),
    v(
        "maxmind-license-key",
        &["MAXMIND_LICENSE_KEY={A:6}_{A:29}_mmk"],
        &["MAXMIND_LICENSE_KEY={x:6}_{x:29}_mmk"],
    ),
    v(
        "intra42-client-secret",
        &["FT_SECRET=s-s4t2ud-{h:64}"],
        &["FT_SECRET=s-s4t2ud-{x:64}"],
    ),
    v(
        "settlemint-token",
        &["SETTLEMINT_TOKEN=sm_pat_{A:16}"],
        &["SETTLEMINT_TOKEN=sm_pat_{x:16}"],
    ),
    v(
        "authress-access-key",
        &["AUTHRESS_KEY=sc_{a:10}.{a:5}.acc_{a:20}.{b:60}"],
        &["AUTHRESS_KEY=sc_{x:10}.{x:5}.acc_{x:20}.{x:60}"],
    ),
    v(
        "sidekiq-secret",
        &["BUNDLE_ENTERPRISE__CONTRIBSYS__COM={h:8}:{h:8}"],
        &["BUNDLE_ENTERPRISE__CONTRIBSYS__COM=${SIDEKIQ_CREDENTIALS}"],
    ),
    v(
        "sidekiq-sensitive-url",
        &["source \"https://{h:8}:{h:8}@gems.contribsys.com/\""],
        &["source \"https://gems.contribsys.com/\""],
    ),
    v(
        "jwt",
        &[
            "Authorization: \"eyJ{w:30}.eyJ{w:60}.{w:43}\"",
            "id_token=eyJ{w:20}.eyJ{w:40}.",
        ],
        &[
            "token = \"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c\"",
            "eyJ",
        ],
    ),
    v(
        "private-key",
        &[
            "-----BEGIN RSA PRIVATE KEY-----",
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            "  -----BEGIN EC PRIVATE KEY-----",
            "-----BEGIN PGP PRIVATE KEY BLOCK-----",
            "\"private_key\": \"-----BEGIN PRIVATE KEY-----\\nMII{b:60}\\n{b:64}\\n-----END PRIVATE KEY-----\\n\",",
        ],
        &[
            "if line.starts_with(\"-----BEGIN RSA PRIVATE KEY-----\") {{",
            "-----BEGIN OPENSSH PRIVATE KEY----------END OPENSSH PRIVATE KEY-----",
            "-----BEGIN PUBLIC KEY-----",
            "-----BEGIN CERTIFICATE-----",
        ],
    ),
    v(
        "credentialed-url",
        &[
            "DATABASE_URL=postgres://app:{A:16}@db.internal:5432/app",
            "mongodb+srv://admin:{A:12}@cluster0.{a:5}.mongodb.net/test",
            "redis://default:{A:20}@redis.internal:6379",
            "amqp://svc:{A:14}@mq:5672/",
            "mysql://root:{A:10}@10.0.0.5/db",
            "https://deploy:{A:18}@git.internal.net/repo.git",
        ],
        &[
            "DATABASE_URL=postgres://postgres:postgres@localhost:5432/app",
            "postgres://user:${DB_PASSWORD}@db/app",
            "amqp://guest:guest@localhost:5672/",
            "https://user:password@example.com/",
            "mongodb://<user>:<password>@host/db",
            "redis://:$REDIS_PASS@redis:6379",
            "postgres://u:p@h/db",
            "SINGLESTORE_CONNECTION_STRING=singlestore://root:singlestore@localhost:33307/",
            "mysql://root:mysql@127.0.0.1:3306/drizzle",
        ],
    ),
    v(
        "http-auth-header",
        &[
            "curl -H \"Authorization: Bearer {w:40}\" https://api.internal",
            "headers = {{\"Authorization\": \"token {A:30}\"}}",
        ],
        &[
            "curl -H \"Authorization: Bearer XXXXXXXXXXXX\" https://api",
            "curl -H \"Authorization: Bearer $API_KEY\"",
            "-H \"Authorization: Token **********\"",
        ],
    ),
    v(
        "curl-auth-header",
        &[
            "curl -fsS -H \"X-Api-Key: {A:26}\" https://api.example.com/deploy",
            "curl --header 'x-auth-token: {w:40}' https://x",
            "  -H \"PRIVATE-TOKEN: {A:20}\" \\",
        ],
        &[
            "curl -H \"X-Api-Key: $API_KEY\" https://api.example.com",
            "curl -H 'Authorization: Bearer ${{TOKEN}}' https://x",
            "curl -H \"Content-Type: application/json\" https://x",
        ],
    ),
    v(
        "curl-basic-auth-continued",
        &["  -u deploy:{A:16} \\", "    --user \"ci:{A:14}\" \\"],
        &["  -u \"$USER:$PASSWORD\" \\", "  -u user:password \\"],
    ),
    v(
        "nuget-config-password",
        &["<add key=\"ClearTextPassword\" value=\"{A:16}\" />"],
        &[
            "<add key=\"ClearTextPassword\" value=\"%NUGET_PASSWORD%\" />",
            "<add key=\"Password\" value=\"$(FeedPassword)\" />",
        ],
    ),
    v(
        "curl-basic-auth",
        &[
            "curl -u admin:{A:14} https://ci.internal/api",
            "curl --user \"deploy:{A:16}\" https://repo",
            "curl --user kevin:'{A:16}' -X PATCH",
            "curl -u \":{A:12}\" https://localhost:9200",
        ],
        &[
            "curl -i -u 'test:test'",
            "curl -u \"${{_username}}:${{_password}}\"",
            "curl -u username:token",
            "curl --user neo4j:[PASSWORD] http://x/",
        ],
    ),
    v(
        "generic-secret",
        &[
            "DB_PASSWORD=\"{A:14}\"",
            "api_key: {A:32}",
            "\"client_secret\": \"{w:40}\"",
            "self.secret_token = '{A:24}'",
            "SECRET_KEY = \"{w:50}\"",
            "password: Tr0ub4dor&3x!",
            "String apiToken = \"{A:32}\";",
            "<password>{A:16}</password>",
        ],
        &[
            "password = os.environ[\"DB_PASSWORD\"]",
            "assert not inside(\"../../../etc/passwd\", \"packages/a/x.js\")",
            "token: ${{ secrets.NPM_TOKEN }}",
            "api_key = process.env.API_KEY;",
            "password: changeme",
            "SECRET_KEY=<your-secret-key>",
            "password = \"********\"",
            "token_url = \"https://example.com/oauth/token\"",
            "primaryKey=O-QDQAs5xN-SSNuzYqC_CqjnsDAhoD",
            "public_key = \"9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit\"",
            "credentialsId: 'ff083f76-7804-4ef1-80e4-fe975bb9141b'",
            "\"integrity\": \"sha512-{b:86}==\"",
            "uses: actions/checkout@{h:40}",
            "secret_length = X25519.secret_length",
            "token = get_token(user)",
            "password = user_password",
            "api_key = \"{uuid}\"",
            "LLM_SECRET_NAME = \"NEXUS-GPT4-API-KEY\"",
            "key_length = XSalsa20.key_length",
            "token_hash = \"{h:64}\"",
            "csrf-token=Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7+V4eUrLfpuyOuxmiW9rhROG/Whikle15syazJOkrjJa3U2AbhIvUw==",
            "COMMUNICATION_API_VERSION=rc0.13.0_20230412_0712-SNAPSHOT",
            "password: \"\"",
            "token = 'aaaaaaaaaaaaaaaa'",
            "<input type=\"hidden\" name=\"authenticity_token\" value=\"{w:86}\" />",
            // a prompt's closing quote is no opening one (minified yarn release)
            "matchMessage:\"Hit Enter to retry.\",t==null&&(t=\"Input new password: \"),m=n.l7Qz2Vx9,Kp=\"",
        ],
    ),
];

/// Deterministic xorshift64* so vectors are random-looking yet identical on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn pick(&mut self, alphabet: &[u8]) -> char {
        char::from(alphabet[(self.next() % alphabet.len() as u64) as usize])
    }
}

/// Expand a vector template (see the module docs for the syntax; `{{`/`}}` are literal braces).
pub(crate) fn expand(template: &str) -> String {
    let seed = template.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut rng = Rng(seed | 1);
    let mut out = String::new();
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        let Some(close) = tail.find('}') else {
            out.push_str(tail);
            rest = "";
            break;
        };
        let spec = &tail[1..close];
        rest = &tail[close + 1..];
        if spec == "uuid" {
            for (j, n) in [8, 4, 4, 4, 12].iter().enumerate() {
                if j > 0 {
                    out.push('-');
                }
                for _ in 0..*n {
                    out.push(rng.pick(b"0123456789abcdef"));
                }
            }
            continue;
        }
        let (class, n) = spec.split_once(':').unwrap_or((spec, "0"));
        let n: usize = n.parse().unwrap_or(0);
        let alphabet: &[u8] = match class {
            "A" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
            "a" => b"abcdefghijklmnopqrstuvwxyz0123456789",
            "U" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
            "l" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
            "h" => b"0123456789abcdef",
            "H" => b"0123456789ABCDEF",
            "d" => b"0123456789",
            "b" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
            "w" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
            "2" => b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
            "B" => b"QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
            "x" => b"x",
            _ => b"?",
        };
        for _ in 0..n {
            out.push(rng.pick(alphabet));
        }
    }
    out.push_str(rest);
    out
}
