"""examples/kubernetes: the Indexed Job and the merge Job are well formed, agree with each other, and
their commands — run here as the pods would run them, with the volumes mapped to local folders — evaluate
Spider dev in shards and merge it into the single-machine run. (No Kubernetes cluster runs here.)"""

import json
import os
import subprocess

import pytest
import yaml
from conftest import BUILD, SOURCE, shared_dir, without_timing

MANIFESTS = SOURCE / "examples" / "kubernetes"


def load(name):
    with open(MANIFESTS / name, encoding="utf-8") as f:
        return yaml.safe_load(f)


def container(job):
    containers = job["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return containers[0]


def test_the_shard_job_is_an_indexed_job_with_one_shard_per_index():
    job = load("eval-shards-job.yaml")
    assert job["apiVersion"] == "batch/v1" and job["kind"] == "Job"
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    assert spec["template"]["spec"]["restartPolicy"] == "Never"
    c = container(job)
    env = {e["name"]: e["value"] for e in c["env"]}
    assert int(env["SHARDS"]) == spec["completions"]
    script = " ".join(c["args"])
    assert '--shard "${JOB_COMPLETION_INDEX}/${SHARDS}"' in script
    assert '--out "/runs/spider-dev/shard-${JOB_COMPLETION_INDEX}"' in script
    assert "--resume" in script  # a retried pod continues its shard
    mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
    volumes = {v["name"] for v in spec["template"]["spec"]["volumes"]}
    assert set(mounts) == volumes


def test_the_merge_job_reads_every_shard_of_the_same_volume():
    shards = load("eval-shards-job.yaml")
    merge = load("merge-job.yaml")
    assert merge["kind"] == "Job" and merge["spec"]["template"]["spec"]["restartPolicy"] == "Never"
    script = " ".join(container(merge)["args"])
    n = shards["spec"]["completions"]
    assert all(f"/runs/spider-dev/shard-{k}" in script for k in range(n))
    assert f"/runs/spider-dev/shard-{n}" not in script
    claim = {v["name"]: v["persistentVolumeClaim"]["claimName"] for v in merge["spec"]["template"]["spec"]["volumes"]}
    shard_claims = {v["name"]: v["persistentVolumeClaim"]["claimName"]
                    for v in shards["spec"]["template"]["spec"]["volumes"]}
    assert claim["runs"] == shard_claims["runs"]


def run_as_pod(script, data, runs, env_extra):
    """The container's `sh -c` script with /data and /runs mapped to local folders."""
    script = script.replace("/data/", str(data) + "/").replace("/runs/", str(runs) + "/")
    env = {"PATH": f"{BUILD}:/usr/bin:/bin", **env_extra}
    return subprocess.run(["/bin/sh", "-c", script], capture_output=True, text=True, env=env)


def test_the_manifests_commands_evaluate_spider_dev_in_shards(tmp_path):
    data = shared_dir() / "benchmarks"
    shards = load("eval-shards-job.yaml")
    merge = load("merge-job.yaml")
    c = container(shards)
    env = {e["name"]: e["value"] for e in c["env"]}
    assert c["command"] == ["/bin/sh", "-c"]
    runs = tmp_path / "runs"
    for k in range(shards["spec"]["completions"]):
        p = run_as_pod(c["args"][0], data, runs, {**env, "JOB_COMPLETION_INDEX": str(k)})
        assert p.returncode == 0, p.stderr
    p = run_as_pod(container(merge)["args"][0], data, runs, {})
    assert p.returncode == 0, p.stderr
    # The single-machine run of the same evaluation.
    single = tmp_path / "single"
    script = c["args"][0].split("--shard")[0] + f" --out {single} --progress none"
    p = run_as_pod(script, data, runs, {})
    assert p.returncode == 0, p.stderr

    def records(folder):
        with open(folder / "results.jsonl", encoding="utf-8") as f:
            return without_timing([json.loads(line) for line in f])

    merged = runs / "spider-dev" / "merged"
    assert records(merged) == records(single)
    assert json.load(open(merged / "run.json"))["fingerprint"] == json.load(open(single / "run.json"))["fingerprint"]
