"""A JSON patch (RFC 6902, its "add" and "replace" operations) applied as
kustomize applies a patch to a manifest, for the tests of the Kubernetes
overlays (k8s_manifest_test.sh, database_deploy_test.sh): a path that
does not exist fails, as kustomize's build would."""
import copy


def apply(doc, ops):
    doc = copy.deepcopy(doc)
    for op in ops:
        keys = op["path"].lstrip("/").split("/")
        at = doc
        for k in keys[:-1]:
            at = at[int(k)] if isinstance(at, list) else at[k]
        last = keys[-1]
        assert op["op"] in ("add", "replace"), op
        if isinstance(at, list):
            if last == "-":
                at.append(op["value"])
            elif op["op"] == "add":
                at.insert(int(last), op["value"])
            else:
                at[int(last)] = op["value"]
        else:
            assert op["op"] == "add" or last in at, f"replace of a missing {op['path']}"
            at[last] = op["value"]
    return doc
