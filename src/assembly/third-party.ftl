<#-- doc/THIRD-PARTY.txt of a plugin archive (license-maven-plugin add-third-party): one entry per third-party jar in
     lib/, with each licence its pom declares. Left out, as src/assembly/connect-plugin.xml leaves them out of lib/:
     what every Connect worker has, and our own modules. -->
<#function shipped p>
  <#if p.groupId?matches("org\\.apache\\.kafka|com\\.fasterxml\\.jackson\\.core|org\\.slf4j|ch\\.qos\\.reload4j|io\\.cdcconnect")><#return false></#if>
  <#if p.artifactId?matches("zstd-jni|lz4-java|snappy-java|jackson-datatype-jsr310")><#return false></#if>
  <#return true>
</#function>
<#assign entries = []/>
<#list dependencyMap as e><#if shipped(e.getKey())><#assign entries = entries + [e.getKey()]/></#if></#list>
This plugin bundles these ${entries?size} third-party components in lib/, each under the licence(s) its Maven pom
declares (name and URL as the pom gives them).
<#list entries as p>

${p.groupId}:${p.artifactId}:${p.version}<#if p.name?? && !p.name?contains('Unnamed')> (${p.name})</#if>
<#if p.url??>  home: ${p.url}
</#if>
<#list p.licenses as l>
  licence: ${l.name!"(no name)"}<#if l.url??> - ${l.url}</#if>
</#list>
</#list>
