"""The mappings a Python mapper may return, normalised for the C++ side."""

_REPLICATIONS = ("active", "deal")


def _host(item, processors, where):
    if isinstance(item, str):
        return item
    if isinstance(item, int) and not isinstance(item, bool):
        if not 0 <= item < len(processors):
            raise ValueError(f"{where}: processor index {item} is not in 0..{len(processors) - 1}")
        return processors[item]
    raise TypeError(f"{where}: a processor is a host name or an index into problem.processors, not {item!r}")


def _group(item, processors, where):
    """One replica: a host (name or index), or a list of hosts (a data-parallel group)."""
    if isinstance(item, (list, tuple)):
        return [_host(h, processors, where) for h in item]
    return [_host(item, processors, where)]


def _interval(item, processors, j):
    where = f"mapping[{j}]"
    if isinstance(item, dict):
        unknown = set(item) - {"stages", "replicas", "replication"}
        if unknown:
            raise ValueError(f"{where}: unknown keys {sorted(unknown)} (stages, replicas, replication)")
        stages = item["stages"]
        stages = [stages] if isinstance(stages, int) else list(stages)
        if len(stages) not in (1, 2):
            raise ValueError(f"{where}: stages is [first, last] or [stage], not {item['stages']!r}")
        first, last = stages[0], stages[-1]
        replicas = item["replicas"]
        replicas = [replicas] if isinstance(replicas, (str, int)) else replicas
        groups = [_group(r, processors, where) for r in replicas]
        replication = item.get("replication", "active")
    elif isinstance(item, (list, tuple)) and len(item) in (3, 4):
        first, last, hosts = item[0], item[1], item[2]
        hosts = [hosts] if isinstance(hosts, (str, int)) else hosts
        groups = [_group(h, processors, where) for h in hosts]
        replication = item[3] if len(item) == 4 else "active"
    else:
        raise TypeError(f"{where}: an interval is (first, last, hosts[, replication]) or "
                        f"{{'stages': [first, last], 'replicas': [...], 'replication': ...}}, not {item!r}")
    if replication not in _REPLICATIONS:
        raise ValueError(f"{where}: replication {replication!r}: expected active or deal")
    return (int(first), int(last), groups, replication)


def normalize(mapping, processors):
    """[(first, last, [[host, ...], ...], replication), ...] from what a mapper returned, or None (no mapping).

    A mapping is a list of intervals in stage order. An interval is either the dict of the JSON results
    ({"stages": [first, last], "replicas": [["P1"], ["P2"]], "replication": "active"}) or a tuple
    (first, last, hosts) / (first, last, hosts, replication), hosts being one host or a list of hosts (one replica
    each); a host is its name or its index in problem.processors; a replica that is a list of hosts is a
    data-parallel group. Stages are numbered from 1, as in the papers."""
    if mapping is None:
        return None
    if isinstance(mapping, dict) and "mapping" in mapping:  # a map result's to_dict()
        mapping = mapping["mapping"]
    if not isinstance(mapping, (list, tuple)):
        raise TypeError(f"a mapping is a list of intervals, not {type(mapping).__name__}")
    return [_interval(item, processors, j) for j, item in enumerate(mapping)]
