# The bundle image: docker build -f bundle/bundle.Dockerfile bundle/ (generated with the rest of bundle/; do not edit)
FROM scratch
LABEL operators.operatorframework.io.bundle.mediatype.v1=registry+v1
LABEL operators.operatorframework.io.bundle.manifests.v1=manifests/
LABEL operators.operatorframework.io.bundle.metadata.v1=metadata/
LABEL operators.operatorframework.io.bundle.package.v1=topobridge
LABEL operators.operatorframework.io.bundle.channels.v1=candidate-v0
LABEL operators.operatorframework.io.bundle.channel.default.v1=candidate-v0
COPY manifests /manifests/
COPY metadata /metadata/
